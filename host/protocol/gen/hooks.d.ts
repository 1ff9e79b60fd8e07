import * as $protobuf from "protobufjs";
import Long = require("long");

/** Namespace wasmhooks. */
export namespace wasmhooks {

    /** Namespace v1. */
    namespace v1 {

        /** HookEvent enum. */
        enum HookEvent {

            /** HOOK_EVENT_UNSPECIFIED value */
            HOOK_EVENT_UNSPECIFIED = 0,

            /** HOOK_EVENT_SESSION_START value */
            HOOK_EVENT_SESSION_START = 1,

            /** HOOK_EVENT_SESSION_END value */
            HOOK_EVENT_SESSION_END = 2,

            /** HOOK_EVENT_USER_PROMPT_SUBMIT value */
            HOOK_EVENT_USER_PROMPT_SUBMIT = 3,

            /** HOOK_EVENT_ITERATION_START value */
            HOOK_EVENT_ITERATION_START = 4,

            /** HOOK_EVENT_PRE_TOOL_BATCH value */
            HOOK_EVENT_PRE_TOOL_BATCH = 5,

            /** HOOK_EVENT_PRE_TOOL_USE value */
            HOOK_EVENT_PRE_TOOL_USE = 6,

            /** HOOK_EVENT_PERMISSION_REQUEST value */
            HOOK_EVENT_PERMISSION_REQUEST = 7,

            /** HOOK_EVENT_POST_TOOL_USE value */
            HOOK_EVENT_POST_TOOL_USE = 8,

            /** HOOK_EVENT_POST_TOOL_USE_FAILURE value */
            HOOK_EVENT_POST_TOOL_USE_FAILURE = 9,

            /** HOOK_EVENT_POST_TOOL_BATCH value */
            HOOK_EVENT_POST_TOOL_BATCH = 10,

            /** HOOK_EVENT_STOP value */
            HOOK_EVENT_STOP = 11,

            /** HOOK_EVENT_STOP_FAILURE value */
            HOOK_EVENT_STOP_FAILURE = 12,

            /** HOOK_EVENT_SUBAGENT_START value */
            HOOK_EVENT_SUBAGENT_START = 13,

            /** HOOK_EVENT_SUBAGENT_STOP value */
            HOOK_EVENT_SUBAGENT_STOP = 14,

            /** HOOK_EVENT_PRE_COMPACT value */
            HOOK_EVENT_PRE_COMPACT = 15,

            /** HOOK_EVENT_POST_COMPACT value */
            HOOK_EVENT_POST_COMPACT = 16,

            /** HOOK_EVENT_NOTIFICATION value */
            HOOK_EVENT_NOTIFICATION = 17,

            /** HOOK_EVENT_ERROR value */
            HOOK_EVENT_ERROR = 18
        }

        /** FailurePolicy enum. */
        enum FailurePolicy {

            /** FAILURE_POLICY_UNSPECIFIED value */
            FAILURE_POLICY_UNSPECIFIED = 0,

            /** FAILURE_POLICY_FAIL_CLOSED value */
            FAILURE_POLICY_FAIL_CLOSED = 1,

            /** FAILURE_POLICY_FAIL_OPEN value */
            FAILURE_POLICY_FAIL_OPEN = 2
        }

        /**
         * Properties of a HookBinding.
         * @deprecated Use wasmhooks.v1.HookBinding.$Properties instead.
         */
        interface IHookBinding extends wasmhooks.v1.HookBinding.$Properties {
        }

        /** Represents a HookBinding. */
        class HookBinding {

            /**
             * Constructs a new HookBinding.
             * @param [properties] Properties to set
             */
            constructor(properties?: wasmhooks.v1.HookBinding.$Properties);

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];

            /** HookBinding event. */
            event: wasmhooks.v1.HookEvent;

            /** HookBinding matcher. */
            matcher: string;

            /** HookBinding failurePolicy. */
            failurePolicy: wasmhooks.v1.FailurePolicy;

            /**
             * Encodes the specified HookBinding message. Does not implicitly {@link wasmhooks.v1.HookBinding.verify|verify} messages.
             * @param message HookBinding message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encode(message: wasmhooks.v1.HookBinding.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Decodes a HookBinding message from the specified reader or buffer.
             * @param reader Reader or buffer to decode from
             * @param [length] Message length if known beforehand
             * @returns {wasmhooks.v1.HookBinding & wasmhooks.v1.HookBinding.$Shape} HookBinding
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): wasmhooks.v1.HookBinding & wasmhooks.v1.HookBinding.$Shape;

            /**
             * Gets the type url for HookBinding
             * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
             * @returns The type url
             */
            static getTypeUrl(prefix?: string): string;
        }

        namespace HookBinding {

            /** Properties of a HookBinding. */
            interface $Properties {

                /** HookBinding event */
                event?: (wasmhooks.v1.HookEvent|null);

                /** HookBinding matcher */
                matcher?: (string|null);

                /** HookBinding failurePolicy */
                failurePolicy?: (wasmhooks.v1.FailurePolicy|null);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];
            }

            /** Shape of a HookBinding. */
            type $Shape = wasmhooks.v1.HookBinding.$Properties;
        }

        /**
         * Properties of a ToolSpec.
         * @deprecated Use wasmhooks.v1.ToolSpec.$Properties instead.
         */
        interface IToolSpec extends wasmhooks.v1.ToolSpec.$Properties {
        }

        /** Represents a ToolSpec. */
        class ToolSpec {

            /**
             * Constructs a new ToolSpec.
             * @param [properties] Properties to set
             */
            constructor(properties?: wasmhooks.v1.ToolSpec.$Properties);

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];

            /** ToolSpec name. */
            name: string;

            /** ToolSpec description. */
            description: string;

            /** ToolSpec inputSchemaJson. */
            inputSchemaJson: string;

            /**
             * Encodes the specified ToolSpec message. Does not implicitly {@link wasmhooks.v1.ToolSpec.verify|verify} messages.
             * @param message ToolSpec message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encode(message: wasmhooks.v1.ToolSpec.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Decodes a ToolSpec message from the specified reader or buffer.
             * @param reader Reader or buffer to decode from
             * @param [length] Message length if known beforehand
             * @returns {wasmhooks.v1.ToolSpec & wasmhooks.v1.ToolSpec.$Shape} ToolSpec
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): wasmhooks.v1.ToolSpec & wasmhooks.v1.ToolSpec.$Shape;

            /**
             * Gets the type url for ToolSpec
             * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
             * @returns The type url
             */
            static getTypeUrl(prefix?: string): string;
        }

        namespace ToolSpec {

            /** Properties of a ToolSpec. */
            interface $Properties {

                /** ToolSpec name */
                name?: (string|null);

                /** ToolSpec description */
                description?: (string|null);

                /** ToolSpec inputSchemaJson */
                inputSchemaJson?: (string|null);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];
            }

            /** Shape of a ToolSpec. */
            type $Shape = wasmhooks.v1.ToolSpec.$Properties;
        }

        /**
         * Properties of a Grants.
         * @deprecated Use wasmhooks.v1.Grants.$Properties instead.
         */
        interface IGrants extends wasmhooks.v1.Grants.$Properties {
        }

        /** Represents a Grants. */
        class Grants {

            /**
             * Constructs a new Grants.
             * @param [properties] Properties to set
             */
            constructor(properties?: wasmhooks.v1.Grants.$Properties);

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];

            /** Grants networkHosts. */
            networkHosts: string[];

            /** Grants filePaths. */
            filePaths: string[];

            /** Grants configKeys. */
            configKeys: string[];

            /**
             * Encodes the specified Grants message. Does not implicitly {@link wasmhooks.v1.Grants.verify|verify} messages.
             * @param message Grants message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encode(message: wasmhooks.v1.Grants.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Decodes a Grants message from the specified reader or buffer.
             * @param reader Reader or buffer to decode from
             * @param [length] Message length if known beforehand
             * @returns {wasmhooks.v1.Grants & wasmhooks.v1.Grants.$Shape} Grants
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): wasmhooks.v1.Grants & wasmhooks.v1.Grants.$Shape;

            /**
             * Gets the type url for Grants
             * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
             * @returns The type url
             */
            static getTypeUrl(prefix?: string): string;
        }

        namespace Grants {

            /** Properties of a Grants. */
            interface $Properties {

                /** Grants networkHosts */
                networkHosts?: (string[]|null);

                /** Grants filePaths */
                filePaths?: (string[]|null);

                /** Grants configKeys */
                configKeys?: (string[]|null);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];
            }

            /** Shape of a Grants. */
            type $Shape = wasmhooks.v1.Grants.$Properties;
        }

        /**
         * Properties of a PluginInfo.
         * @deprecated Use wasmhooks.v1.PluginInfo.$Properties instead.
         */
        interface IPluginInfo extends wasmhooks.v1.PluginInfo.$Properties {
        }

        /** Represents a PluginInfo. */
        class PluginInfo {

            /**
             * Constructs a new PluginInfo.
             * @param [properties] Properties to set
             */
            constructor(properties?: wasmhooks.v1.PluginInfo.$Properties);

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];

            /** PluginInfo name. */
            name: string;

            /** PluginInfo version. */
            version: string;

            /** PluginInfo protocolVersion. */
            protocolVersion: number;

            /** PluginInfo hooks. */
            hooks: wasmhooks.v1.HookBinding.$Properties[];

            /** PluginInfo tools. */
            tools: wasmhooks.v1.ToolSpec.$Properties[];

            /** PluginInfo grants. */
            grants?: (wasmhooks.v1.Grants.$Properties|null);

            /** PluginInfo description. */
            description: string;

            /**
             * Encodes the specified PluginInfo message. Does not implicitly {@link wasmhooks.v1.PluginInfo.verify|verify} messages.
             * @param message PluginInfo message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encode(message: wasmhooks.v1.PluginInfo.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Decodes a PluginInfo message from the specified reader or buffer.
             * @param reader Reader or buffer to decode from
             * @param [length] Message length if known beforehand
             * @returns {wasmhooks.v1.PluginInfo & wasmhooks.v1.PluginInfo.$Shape} PluginInfo
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): wasmhooks.v1.PluginInfo & wasmhooks.v1.PluginInfo.$Shape;

            /**
             * Gets the type url for PluginInfo
             * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
             * @returns The type url
             */
            static getTypeUrl(prefix?: string): string;
        }

        namespace PluginInfo {

            /** Properties of a PluginInfo. */
            interface $Properties {

                /** PluginInfo name */
                name?: (string|null);

                /** PluginInfo version */
                version?: (string|null);

                /** PluginInfo protocolVersion */
                protocolVersion?: (number|null);

                /** PluginInfo hooks */
                hooks?: (wasmhooks.v1.HookBinding.$Properties[]|null);

                /** PluginInfo tools */
                tools?: (wasmhooks.v1.ToolSpec.$Properties[]|null);

                /** PluginInfo grants */
                grants?: (wasmhooks.v1.Grants.$Properties|null);

                /** PluginInfo description */
                description?: (string|null);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];
            }

            /** Shape of a PluginInfo. */
            type $Shape = wasmhooks.v1.PluginInfo.$Properties;
        }

        /**
         * Properties of a HookContext.
         * @deprecated Use wasmhooks.v1.HookContext.$Properties instead.
         */
        interface IHookContext extends wasmhooks.v1.HookContext.$Properties {
        }

        /** Represents a HookContext. */
        class HookContext {

            /**
             * Constructs a new HookContext.
             * @param [properties] Properties to set
             */
            constructor(properties?: wasmhooks.v1.HookContext.$Properties);

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];

            /** HookContext sessionId. */
            sessionId: string;

            /** HookContext turn. */
            turn: number;

            /** HookContext iteration. */
            iteration: number;

            /** HookContext agentId. */
            agentId: string;

            /** HookContext cwd. */
            cwd: string;

            /** HookContext toolUseId. */
            toolUseId: string;

            /** HookContext permissionMode. */
            permissionMode: string;

            /** HookContext transcriptPath. */
            transcriptPath: string;

            /**
             * Encodes the specified HookContext message. Does not implicitly {@link wasmhooks.v1.HookContext.verify|verify} messages.
             * @param message HookContext message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encode(message: wasmhooks.v1.HookContext.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Decodes a HookContext message from the specified reader or buffer.
             * @param reader Reader or buffer to decode from
             * @param [length] Message length if known beforehand
             * @returns {wasmhooks.v1.HookContext & wasmhooks.v1.HookContext.$Shape} HookContext
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): wasmhooks.v1.HookContext & wasmhooks.v1.HookContext.$Shape;

            /**
             * Gets the type url for HookContext
             * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
             * @returns The type url
             */
            static getTypeUrl(prefix?: string): string;
        }

        namespace HookContext {

            /** Properties of a HookContext. */
            interface $Properties {

                /** HookContext sessionId */
                sessionId?: (string|null);

                /** HookContext turn */
                turn?: (number|null);

                /** HookContext iteration */
                iteration?: (number|null);

                /** HookContext agentId */
                agentId?: (string|null);

                /** HookContext cwd */
                cwd?: (string|null);

                /** HookContext toolUseId */
                toolUseId?: (string|null);

                /** HookContext permissionMode */
                permissionMode?: (string|null);

                /** HookContext transcriptPath */
                transcriptPath?: (string|null);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];
            }

            /** Shape of a HookContext. */
            type $Shape = wasmhooks.v1.HookContext.$Properties;
        }

        /**
         * Properties of a SessionPayload.
         * @deprecated Use wasmhooks.v1.SessionPayload.$Properties instead.
         */
        interface ISessionPayload extends wasmhooks.v1.SessionPayload.$Properties {
        }

        /** Represents a SessionPayload. */
        class SessionPayload {

            /**
             * Constructs a new SessionPayload.
             * @param [properties] Properties to set
             */
            constructor(properties?: wasmhooks.v1.SessionPayload.$Properties);

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];

            /** SessionPayload reason. */
            reason: string;

            /**
             * Encodes the specified SessionPayload message. Does not implicitly {@link wasmhooks.v1.SessionPayload.verify|verify} messages.
             * @param message SessionPayload message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encode(message: wasmhooks.v1.SessionPayload.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Decodes a SessionPayload message from the specified reader or buffer.
             * @param reader Reader or buffer to decode from
             * @param [length] Message length if known beforehand
             * @returns {wasmhooks.v1.SessionPayload & wasmhooks.v1.SessionPayload.$Shape} SessionPayload
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): wasmhooks.v1.SessionPayload & wasmhooks.v1.SessionPayload.$Shape;

            /**
             * Gets the type url for SessionPayload
             * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
             * @returns The type url
             */
            static getTypeUrl(prefix?: string): string;
        }

        namespace SessionPayload {

            /** Properties of a SessionPayload. */
            interface $Properties {

                /** SessionPayload reason */
                reason?: (string|null);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];
            }

            /** Shape of a SessionPayload. */
            type $Shape = wasmhooks.v1.SessionPayload.$Properties;
        }

        /**
         * Properties of a PromptPayload.
         * @deprecated Use wasmhooks.v1.PromptPayload.$Properties instead.
         */
        interface IPromptPayload extends wasmhooks.v1.PromptPayload.$Properties {
        }

        /** Represents a PromptPayload. */
        class PromptPayload {

            /**
             * Constructs a new PromptPayload.
             * @param [properties] Properties to set
             */
            constructor(properties?: wasmhooks.v1.PromptPayload.$Properties);

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];

            /** PromptPayload prompt. */
            prompt: string;

            /**
             * Encodes the specified PromptPayload message. Does not implicitly {@link wasmhooks.v1.PromptPayload.verify|verify} messages.
             * @param message PromptPayload message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encode(message: wasmhooks.v1.PromptPayload.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Decodes a PromptPayload message from the specified reader or buffer.
             * @param reader Reader or buffer to decode from
             * @param [length] Message length if known beforehand
             * @returns {wasmhooks.v1.PromptPayload & wasmhooks.v1.PromptPayload.$Shape} PromptPayload
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): wasmhooks.v1.PromptPayload & wasmhooks.v1.PromptPayload.$Shape;

            /**
             * Gets the type url for PromptPayload
             * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
             * @returns The type url
             */
            static getTypeUrl(prefix?: string): string;
        }

        namespace PromptPayload {

            /** Properties of a PromptPayload. */
            interface $Properties {

                /** PromptPayload prompt */
                prompt?: (string|null);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];
            }

            /** Shape of a PromptPayload. */
            type $Shape = wasmhooks.v1.PromptPayload.$Properties;
        }

        /**
         * Properties of a ToolUsePayload.
         * @deprecated Use wasmhooks.v1.ToolUsePayload.$Properties instead.
         */
        interface IToolUsePayload extends wasmhooks.v1.ToolUsePayload.$Properties {
        }

        /** Represents a ToolUsePayload. */
        class ToolUsePayload {

            /**
             * Constructs a new ToolUsePayload.
             * @param [properties] Properties to set
             */
            constructor(properties?: wasmhooks.v1.ToolUsePayload.$Properties);

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];

            /** ToolUsePayload toolName. */
            toolName: string;

            /** ToolUsePayload toolInputJson. */
            toolInputJson: string;

            /** ToolUsePayload recheck. */
            recheck: boolean;

            /** ToolUsePayload permissionSuggestionsJson. */
            permissionSuggestionsJson: string;

            /**
             * Encodes the specified ToolUsePayload message. Does not implicitly {@link wasmhooks.v1.ToolUsePayload.verify|verify} messages.
             * @param message ToolUsePayload message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encode(message: wasmhooks.v1.ToolUsePayload.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Decodes a ToolUsePayload message from the specified reader or buffer.
             * @param reader Reader or buffer to decode from
             * @param [length] Message length if known beforehand
             * @returns {wasmhooks.v1.ToolUsePayload & wasmhooks.v1.ToolUsePayload.$Shape} ToolUsePayload
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): wasmhooks.v1.ToolUsePayload & wasmhooks.v1.ToolUsePayload.$Shape;

            /**
             * Gets the type url for ToolUsePayload
             * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
             * @returns The type url
             */
            static getTypeUrl(prefix?: string): string;
        }

        namespace ToolUsePayload {

            /** Properties of a ToolUsePayload. */
            interface $Properties {

                /** ToolUsePayload toolName */
                toolName?: (string|null);

                /** ToolUsePayload toolInputJson */
                toolInputJson?: (string|null);

                /** ToolUsePayload recheck */
                recheck?: (boolean|null);

                /** ToolUsePayload permissionSuggestionsJson */
                permissionSuggestionsJson?: (string|null);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];
            }

            /** Shape of a ToolUsePayload. */
            type $Shape = wasmhooks.v1.ToolUsePayload.$Properties;
        }

        /**
         * Properties of a ToolResultPayload.
         * @deprecated Use wasmhooks.v1.ToolResultPayload.$Properties instead.
         */
        interface IToolResultPayload extends wasmhooks.v1.ToolResultPayload.$Properties {
        }

        /** Represents a ToolResultPayload. */
        class ToolResultPayload {

            /**
             * Constructs a new ToolResultPayload.
             * @param [properties] Properties to set
             */
            constructor(properties?: wasmhooks.v1.ToolResultPayload.$Properties);

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];

            /** ToolResultPayload toolName. */
            toolName: string;

            /** ToolResultPayload toolInputJson. */
            toolInputJson: string;

            /** ToolResultPayload toolOutputJson. */
            toolOutputJson: string;

            /** ToolResultPayload error. */
            error: string;

            /** ToolResultPayload durationMs. */
            durationMs: number;

            /**
             * Encodes the specified ToolResultPayload message. Does not implicitly {@link wasmhooks.v1.ToolResultPayload.verify|verify} messages.
             * @param message ToolResultPayload message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encode(message: wasmhooks.v1.ToolResultPayload.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Decodes a ToolResultPayload message from the specified reader or buffer.
             * @param reader Reader or buffer to decode from
             * @param [length] Message length if known beforehand
             * @returns {wasmhooks.v1.ToolResultPayload & wasmhooks.v1.ToolResultPayload.$Shape} ToolResultPayload
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): wasmhooks.v1.ToolResultPayload & wasmhooks.v1.ToolResultPayload.$Shape;

            /**
             * Gets the type url for ToolResultPayload
             * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
             * @returns The type url
             */
            static getTypeUrl(prefix?: string): string;
        }

        namespace ToolResultPayload {

            /** Properties of a ToolResultPayload. */
            interface $Properties {

                /** ToolResultPayload toolName */
                toolName?: (string|null);

                /** ToolResultPayload toolInputJson */
                toolInputJson?: (string|null);

                /** ToolResultPayload toolOutputJson */
                toolOutputJson?: (string|null);

                /** ToolResultPayload error */
                error?: (string|null);

                /** ToolResultPayload durationMs */
                durationMs?: (number|null);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];
            }

            /** Shape of a ToolResultPayload. */
            type $Shape = wasmhooks.v1.ToolResultPayload.$Properties;
        }

        /**
         * Properties of a ToolCall.
         * @deprecated Use wasmhooks.v1.ToolCall.$Properties instead.
         */
        interface IToolCall extends wasmhooks.v1.ToolCall.$Properties {
        }

        /** Represents a ToolCall. */
        class ToolCall {

            /**
             * Constructs a new ToolCall.
             * @param [properties] Properties to set
             */
            constructor(properties?: wasmhooks.v1.ToolCall.$Properties);

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];

            /** ToolCall id. */
            id: string;

            /** ToolCall name. */
            name: string;

            /** ToolCall inputJson. */
            inputJson: string;

            /** ToolCall responseJson. */
            responseJson: string;

            /** ToolCall isError. */
            isError: boolean;

            /**
             * Encodes the specified ToolCall message. Does not implicitly {@link wasmhooks.v1.ToolCall.verify|verify} messages.
             * @param message ToolCall message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encode(message: wasmhooks.v1.ToolCall.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Decodes a ToolCall message from the specified reader or buffer.
             * @param reader Reader or buffer to decode from
             * @param [length] Message length if known beforehand
             * @returns {wasmhooks.v1.ToolCall & wasmhooks.v1.ToolCall.$Shape} ToolCall
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): wasmhooks.v1.ToolCall & wasmhooks.v1.ToolCall.$Shape;

            /**
             * Gets the type url for ToolCall
             * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
             * @returns The type url
             */
            static getTypeUrl(prefix?: string): string;
        }

        namespace ToolCall {

            /** Properties of a ToolCall. */
            interface $Properties {

                /** ToolCall id */
                id?: (string|null);

                /** ToolCall name */
                name?: (string|null);

                /** ToolCall inputJson */
                inputJson?: (string|null);

                /** ToolCall responseJson */
                responseJson?: (string|null);

                /** ToolCall isError */
                isError?: (boolean|null);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];
            }

            /** Shape of a ToolCall. */
            type $Shape = wasmhooks.v1.ToolCall.$Properties;
        }

        /**
         * Properties of a ToolBatchPayload.
         * @deprecated Use wasmhooks.v1.ToolBatchPayload.$Properties instead.
         */
        interface IToolBatchPayload extends wasmhooks.v1.ToolBatchPayload.$Properties {
        }

        /** Represents a ToolBatchPayload. */
        class ToolBatchPayload {

            /**
             * Constructs a new ToolBatchPayload.
             * @param [properties] Properties to set
             */
            constructor(properties?: wasmhooks.v1.ToolBatchPayload.$Properties);

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];

            /** ToolBatchPayload calls. */
            calls: wasmhooks.v1.ToolCall.$Properties[];

            /**
             * Encodes the specified ToolBatchPayload message. Does not implicitly {@link wasmhooks.v1.ToolBatchPayload.verify|verify} messages.
             * @param message ToolBatchPayload message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encode(message: wasmhooks.v1.ToolBatchPayload.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Decodes a ToolBatchPayload message from the specified reader or buffer.
             * @param reader Reader or buffer to decode from
             * @param [length] Message length if known beforehand
             * @returns {wasmhooks.v1.ToolBatchPayload & wasmhooks.v1.ToolBatchPayload.$Shape} ToolBatchPayload
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): wasmhooks.v1.ToolBatchPayload & wasmhooks.v1.ToolBatchPayload.$Shape;

            /**
             * Gets the type url for ToolBatchPayload
             * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
             * @returns The type url
             */
            static getTypeUrl(prefix?: string): string;
        }

        namespace ToolBatchPayload {

            /** Properties of a ToolBatchPayload. */
            interface $Properties {

                /** ToolBatchPayload calls */
                calls?: (wasmhooks.v1.ToolCall.$Properties[]|null);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];
            }

            /** Shape of a ToolBatchPayload. */
            type $Shape = wasmhooks.v1.ToolBatchPayload.$Properties;
        }

        /**
         * Properties of a StopPayload.
         * @deprecated Use wasmhooks.v1.StopPayload.$Properties instead.
         */
        interface IStopPayload extends wasmhooks.v1.StopPayload.$Properties {
        }

        /** Represents a StopPayload. */
        class StopPayload {

            /**
             * Constructs a new StopPayload.
             * @param [properties] Properties to set
             */
            constructor(properties?: wasmhooks.v1.StopPayload.$Properties);

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];

            /** StopPayload stopHookActive. */
            stopHookActive: boolean;

            /** StopPayload lastAssistantMessage. */
            lastAssistantMessage: string;

            /** StopPayload error. */
            error: string;

            /**
             * Encodes the specified StopPayload message. Does not implicitly {@link wasmhooks.v1.StopPayload.verify|verify} messages.
             * @param message StopPayload message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encode(message: wasmhooks.v1.StopPayload.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Decodes a StopPayload message from the specified reader or buffer.
             * @param reader Reader or buffer to decode from
             * @param [length] Message length if known beforehand
             * @returns {wasmhooks.v1.StopPayload & wasmhooks.v1.StopPayload.$Shape} StopPayload
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): wasmhooks.v1.StopPayload & wasmhooks.v1.StopPayload.$Shape;

            /**
             * Gets the type url for StopPayload
             * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
             * @returns The type url
             */
            static getTypeUrl(prefix?: string): string;
        }

        namespace StopPayload {

            /** Properties of a StopPayload. */
            interface $Properties {

                /** StopPayload stopHookActive */
                stopHookActive?: (boolean|null);

                /** StopPayload lastAssistantMessage */
                lastAssistantMessage?: (string|null);

                /** StopPayload error */
                error?: (string|null);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];
            }

            /** Shape of a StopPayload. */
            type $Shape = wasmhooks.v1.StopPayload.$Properties;
        }

        /**
         * Properties of a SubagentPayload.
         * @deprecated Use wasmhooks.v1.SubagentPayload.$Properties instead.
         */
        interface ISubagentPayload extends wasmhooks.v1.SubagentPayload.$Properties {
        }

        /** Represents a SubagentPayload. */
        class SubagentPayload {

            /**
             * Constructs a new SubagentPayload.
             * @param [properties] Properties to set
             */
            constructor(properties?: wasmhooks.v1.SubagentPayload.$Properties);

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];

            /** SubagentPayload agentId. */
            agentId: string;

            /** SubagentPayload agentType. */
            agentType: string;

            /** SubagentPayload prompt. */
            prompt: string;

            /** SubagentPayload result. */
            result: string;

            /** SubagentPayload stopHookActive. */
            stopHookActive: boolean;

            /** SubagentPayload lastAssistantMessage. */
            lastAssistantMessage: string;

            /**
             * Encodes the specified SubagentPayload message. Does not implicitly {@link wasmhooks.v1.SubagentPayload.verify|verify} messages.
             * @param message SubagentPayload message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encode(message: wasmhooks.v1.SubagentPayload.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Decodes a SubagentPayload message from the specified reader or buffer.
             * @param reader Reader or buffer to decode from
             * @param [length] Message length if known beforehand
             * @returns {wasmhooks.v1.SubagentPayload & wasmhooks.v1.SubagentPayload.$Shape} SubagentPayload
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): wasmhooks.v1.SubagentPayload & wasmhooks.v1.SubagentPayload.$Shape;

            /**
             * Gets the type url for SubagentPayload
             * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
             * @returns The type url
             */
            static getTypeUrl(prefix?: string): string;
        }

        namespace SubagentPayload {

            /** Properties of a SubagentPayload. */
            interface $Properties {

                /** SubagentPayload agentId */
                agentId?: (string|null);

                /** SubagentPayload agentType */
                agentType?: (string|null);

                /** SubagentPayload prompt */
                prompt?: (string|null);

                /** SubagentPayload result */
                result?: (string|null);

                /** SubagentPayload stopHookActive */
                stopHookActive?: (boolean|null);

                /** SubagentPayload lastAssistantMessage */
                lastAssistantMessage?: (string|null);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];
            }

            /** Shape of a SubagentPayload. */
            type $Shape = wasmhooks.v1.SubagentPayload.$Properties;
        }

        /**
         * Properties of a CompactPayload.
         * @deprecated Use wasmhooks.v1.CompactPayload.$Properties instead.
         */
        interface ICompactPayload extends wasmhooks.v1.CompactPayload.$Properties {
        }

        /** Represents a CompactPayload. */
        class CompactPayload {

            /**
             * Constructs a new CompactPayload.
             * @param [properties] Properties to set
             */
            constructor(properties?: wasmhooks.v1.CompactPayload.$Properties);

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];

            /** CompactPayload trigger. */
            trigger: string;

            /** CompactPayload tokensBefore. */
            tokensBefore: number;

            /** CompactPayload tokensAfter. */
            tokensAfter: number;

            /**
             * Encodes the specified CompactPayload message. Does not implicitly {@link wasmhooks.v1.CompactPayload.verify|verify} messages.
             * @param message CompactPayload message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encode(message: wasmhooks.v1.CompactPayload.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Decodes a CompactPayload message from the specified reader or buffer.
             * @param reader Reader or buffer to decode from
             * @param [length] Message length if known beforehand
             * @returns {wasmhooks.v1.CompactPayload & wasmhooks.v1.CompactPayload.$Shape} CompactPayload
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): wasmhooks.v1.CompactPayload & wasmhooks.v1.CompactPayload.$Shape;

            /**
             * Gets the type url for CompactPayload
             * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
             * @returns The type url
             */
            static getTypeUrl(prefix?: string): string;
        }

        namespace CompactPayload {

            /** Properties of a CompactPayload. */
            interface $Properties {

                /** CompactPayload trigger */
                trigger?: (string|null);

                /** CompactPayload tokensBefore */
                tokensBefore?: (number|null);

                /** CompactPayload tokensAfter */
                tokensAfter?: (number|null);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];
            }

            /** Shape of a CompactPayload. */
            type $Shape = wasmhooks.v1.CompactPayload.$Properties;
        }

        /**
         * Properties of a NotificationPayload.
         * @deprecated Use wasmhooks.v1.NotificationPayload.$Properties instead.
         */
        interface INotificationPayload extends wasmhooks.v1.NotificationPayload.$Properties {
        }

        /** Represents a NotificationPayload. */
        class NotificationPayload {

            /**
             * Constructs a new NotificationPayload.
             * @param [properties] Properties to set
             */
            constructor(properties?: wasmhooks.v1.NotificationPayload.$Properties);

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];

            /** NotificationPayload message. */
            message: string;

            /** NotificationPayload level. */
            level: string;

            /** NotificationPayload notificationType. */
            notificationType: string;

            /** NotificationPayload title. */
            title: string;

            /**
             * Encodes the specified NotificationPayload message. Does not implicitly {@link wasmhooks.v1.NotificationPayload.verify|verify} messages.
             * @param message NotificationPayload message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encode(message: wasmhooks.v1.NotificationPayload.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Decodes a NotificationPayload message from the specified reader or buffer.
             * @param reader Reader or buffer to decode from
             * @param [length] Message length if known beforehand
             * @returns {wasmhooks.v1.NotificationPayload & wasmhooks.v1.NotificationPayload.$Shape} NotificationPayload
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): wasmhooks.v1.NotificationPayload & wasmhooks.v1.NotificationPayload.$Shape;

            /**
             * Gets the type url for NotificationPayload
             * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
             * @returns The type url
             */
            static getTypeUrl(prefix?: string): string;
        }

        namespace NotificationPayload {

            /** Properties of a NotificationPayload. */
            interface $Properties {

                /** NotificationPayload message */
                message?: (string|null);

                /** NotificationPayload level */
                level?: (string|null);

                /** NotificationPayload notificationType */
                notificationType?: (string|null);

                /** NotificationPayload title */
                title?: (string|null);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];
            }

            /** Shape of a NotificationPayload. */
            type $Shape = wasmhooks.v1.NotificationPayload.$Properties;
        }

        /**
         * Properties of an ErrorPayload.
         * @deprecated Use wasmhooks.v1.ErrorPayload.$Properties instead.
         */
        interface IErrorPayload extends wasmhooks.v1.ErrorPayload.$Properties {
        }

        /** Represents an ErrorPayload. */
        class ErrorPayload {

            /**
             * Constructs a new ErrorPayload.
             * @param [properties] Properties to set
             */
            constructor(properties?: wasmhooks.v1.ErrorPayload.$Properties);

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];

            /** ErrorPayload code. */
            code: string;

            /** ErrorPayload message. */
            message: string;

            /**
             * Encodes the specified ErrorPayload message. Does not implicitly {@link wasmhooks.v1.ErrorPayload.verify|verify} messages.
             * @param message ErrorPayload message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encode(message: wasmhooks.v1.ErrorPayload.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Decodes an ErrorPayload message from the specified reader or buffer.
             * @param reader Reader or buffer to decode from
             * @param [length] Message length if known beforehand
             * @returns {wasmhooks.v1.ErrorPayload & wasmhooks.v1.ErrorPayload.$Shape} ErrorPayload
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): wasmhooks.v1.ErrorPayload & wasmhooks.v1.ErrorPayload.$Shape;

            /**
             * Gets the type url for ErrorPayload
             * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
             * @returns The type url
             */
            static getTypeUrl(prefix?: string): string;
        }

        namespace ErrorPayload {

            /** Properties of an ErrorPayload. */
            interface $Properties {

                /** ErrorPayload code */
                code?: (string|null);

                /** ErrorPayload message */
                message?: (string|null);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];
            }

            /** Shape of an ErrorPayload. */
            type $Shape = wasmhooks.v1.ErrorPayload.$Properties;
        }

        /**
         * Properties of a HookRequest.
         * @deprecated Use wasmhooks.v1.HookRequest.$Properties instead.
         */
        interface IHookRequest extends wasmhooks.v1.HookRequest.$Properties {
        }

        /** Represents a HookRequest. */
        class HookRequest {

            /**
             * Constructs a new HookRequest.
             * @param [properties] Properties to set
             */
            constructor(properties?: wasmhooks.v1.HookRequest.$Properties);

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];

            /** HookRequest event. */
            event: wasmhooks.v1.HookEvent;

            /** HookRequest context. */
            context?: (wasmhooks.v1.HookContext.$Properties|null);

            /** HookRequest bindingIndex. */
            bindingIndex: number;

            /** HookRequest session. */
            session?: (wasmhooks.v1.SessionPayload.$Properties|null);

            /** HookRequest prompt. */
            prompt?: (wasmhooks.v1.PromptPayload.$Properties|null);

            /** HookRequest toolUse. */
            toolUse?: (wasmhooks.v1.ToolUsePayload.$Properties|null);

            /** HookRequest toolResult. */
            toolResult?: (wasmhooks.v1.ToolResultPayload.$Properties|null);

            /** HookRequest toolBatch. */
            toolBatch?: (wasmhooks.v1.ToolBatchPayload.$Properties|null);

            /** HookRequest stop. */
            stop?: (wasmhooks.v1.StopPayload.$Properties|null);

            /** HookRequest subagent. */
            subagent?: (wasmhooks.v1.SubagentPayload.$Properties|null);

            /** HookRequest compact. */
            compact?: (wasmhooks.v1.CompactPayload.$Properties|null);

            /** HookRequest notification. */
            notification?: (wasmhooks.v1.NotificationPayload.$Properties|null);

            /** HookRequest error. */
            error?: (wasmhooks.v1.ErrorPayload.$Properties|null);

            /** HookRequest payload. */
            payload?: ("session"|"prompt"|"toolUse"|"toolResult"|"toolBatch"|"stop"|"subagent"|"compact"|"notification"|"error");

            /**
             * Encodes the specified HookRequest message. Does not implicitly {@link wasmhooks.v1.HookRequest.verify|verify} messages.
             * @param message HookRequest message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encode(message: wasmhooks.v1.HookRequest.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Decodes a HookRequest message from the specified reader or buffer.
             * @param reader Reader or buffer to decode from
             * @param [length] Message length if known beforehand
             * @returns {wasmhooks.v1.HookRequest & wasmhooks.v1.HookRequest.$Shape} HookRequest
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): wasmhooks.v1.HookRequest & wasmhooks.v1.HookRequest.$Shape;

            /**
             * Gets the type url for HookRequest
             * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
             * @returns The type url
             */
            static getTypeUrl(prefix?: string): string;
        }

        namespace HookRequest {

            /** Properties of a HookRequest. */
            interface $Properties {

                /** HookRequest event */
                event?: (wasmhooks.v1.HookEvent|null);

                /** HookRequest context */
                context?: (wasmhooks.v1.HookContext.$Properties|null);

                /** HookRequest bindingIndex */
                bindingIndex?: (number|null);

                /** HookRequest session */
                session?: (wasmhooks.v1.SessionPayload.$Properties|null);

                /** HookRequest prompt */
                prompt?: (wasmhooks.v1.PromptPayload.$Properties|null);

                /** HookRequest toolUse */
                toolUse?: (wasmhooks.v1.ToolUsePayload.$Properties|null);

                /** HookRequest toolResult */
                toolResult?: (wasmhooks.v1.ToolResultPayload.$Properties|null);

                /** HookRequest toolBatch */
                toolBatch?: (wasmhooks.v1.ToolBatchPayload.$Properties|null);

                /** HookRequest stop */
                stop?: (wasmhooks.v1.StopPayload.$Properties|null);

                /** HookRequest subagent */
                subagent?: (wasmhooks.v1.SubagentPayload.$Properties|null);

                /** HookRequest compact */
                compact?: (wasmhooks.v1.CompactPayload.$Properties|null);

                /** HookRequest notification */
                notification?: (wasmhooks.v1.NotificationPayload.$Properties|null);

                /** HookRequest error */
                error?: (wasmhooks.v1.ErrorPayload.$Properties|null);

                /** HookRequest payload */
                payload?: ("session"|"prompt"|"toolUse"|"toolResult"|"toolBatch"|"stop"|"subagent"|"compact"|"notification"|"error");

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];
            }

            /** Narrowed shape of a HookRequest. */
            type $Shape = {
              event?: wasmhooks.v1.HookEvent|null;
              context?: wasmhooks.v1.HookContext.$Shape|null;
              bindingIndex?: number|null;
              session?: wasmhooks.v1.SessionPayload.$Shape|null;
              prompt?: wasmhooks.v1.PromptPayload.$Shape|null;
              toolUse?: wasmhooks.v1.ToolUsePayload.$Shape|null;
              toolResult?: wasmhooks.v1.ToolResultPayload.$Shape|null;
              toolBatch?: wasmhooks.v1.ToolBatchPayload.$Shape|null;
              stop?: wasmhooks.v1.StopPayload.$Shape|null;
              subagent?: wasmhooks.v1.SubagentPayload.$Shape|null;
              compact?: wasmhooks.v1.CompactPayload.$Shape|null;
              notification?: wasmhooks.v1.NotificationPayload.$Shape|null;
              error?: wasmhooks.v1.ErrorPayload.$Shape|null;
              $unknowns?: Uint8Array[];
            } & (
              ({ payload?: undefined; session?: null; prompt?: null; toolUse?: null; toolResult?: null; toolBatch?: null; stop?: null; subagent?: null; compact?: null; notification?: null; error?: null }|{ payload?: "session"; session: wasmhooks.v1.SessionPayload.$Shape; prompt?: null; toolUse?: null; toolResult?: null; toolBatch?: null; stop?: null; subagent?: null; compact?: null; notification?: null; error?: null }|{ payload?: "prompt"; session?: null; prompt: wasmhooks.v1.PromptPayload.$Shape; toolUse?: null; toolResult?: null; toolBatch?: null; stop?: null; subagent?: null; compact?: null; notification?: null; error?: null }|{ payload?: "toolUse"; session?: null; prompt?: null; toolUse: wasmhooks.v1.ToolUsePayload.$Shape; toolResult?: null; toolBatch?: null; stop?: null; subagent?: null; compact?: null; notification?: null; error?: null }|{ payload?: "toolResult"; session?: null; prompt?: null; toolUse?: null; toolResult: wasmhooks.v1.ToolResultPayload.$Shape; toolBatch?: null; stop?: null; subagent?: null; compact?: null; notification?: null; error?: null }|{ payload?: "toolBatch"; session?: null; prompt?: null; toolUse?: null; toolResult?: null; toolBatch: wasmhooks.v1.ToolBatchPayload.$Shape; stop?: null; subagent?: null; compact?: null; notification?: null; error?: null }|{ payload?: "stop"; session?: null; prompt?: null; toolUse?: null; toolResult?: null; toolBatch?: null; stop: wasmhooks.v1.StopPayload.$Shape; subagent?: null; compact?: null; notification?: null; error?: null }|{ payload?: "subagent"; session?: null; prompt?: null; toolUse?: null; toolResult?: null; toolBatch?: null; stop?: null; subagent: wasmhooks.v1.SubagentPayload.$Shape; compact?: null; notification?: null; error?: null }|{ payload?: "compact"; session?: null; prompt?: null; toolUse?: null; toolResult?: null; toolBatch?: null; stop?: null; subagent?: null; compact: wasmhooks.v1.CompactPayload.$Shape; notification?: null; error?: null }|{ payload?: "notification"; session?: null; prompt?: null; toolUse?: null; toolResult?: null; toolBatch?: null; stop?: null; subagent?: null; compact?: null; notification: wasmhooks.v1.NotificationPayload.$Shape; error?: null }|{ payload?: "error"; session?: null; prompt?: null; toolUse?: null; toolResult?: null; toolBatch?: null; stop?: null; subagent?: null; compact?: null; notification?: null; error: wasmhooks.v1.ErrorPayload.$Shape })
            );
        }

        /** Decision enum. */
        enum Decision {

            /** DECISION_UNSPECIFIED value */
            DECISION_UNSPECIFIED = 0,

            /** DECISION_CONTINUE value */
            DECISION_CONTINUE = 1,

            /** DECISION_ALLOW value */
            DECISION_ALLOW = 2,

            /** DECISION_DENY value */
            DECISION_DENY = 3,

            /** DECISION_ASK value */
            DECISION_ASK = 4,

            /** DECISION_STOP value */
            DECISION_STOP = 5,

            /** DECISION_BLOCK value */
            DECISION_BLOCK = 6
        }

        /**
         * Properties of a HookResponse.
         * @deprecated Use wasmhooks.v1.HookResponse.$Properties instead.
         */
        interface IHookResponse extends wasmhooks.v1.HookResponse.$Properties {
        }

        /** Represents a HookResponse. */
        class HookResponse {

            /**
             * Constructs a new HookResponse.
             * @param [properties] Properties to set
             */
            constructor(properties?: wasmhooks.v1.HookResponse.$Properties);

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];

            /** HookResponse decision. */
            decision: wasmhooks.v1.Decision;

            /** HookResponse reason. */
            reason: string;

            /** HookResponse updatedInputJson. */
            updatedInputJson: string;

            /** HookResponse additionalContext. */
            additionalContext: string;

            /** HookResponse systemMessage. */
            systemMessage: string;

            /** HookResponse updatedOutputJson. */
            updatedOutputJson: string;

            /** HookResponse updatedPermissionsJson. */
            updatedPermissionsJson: string;

            /**
             * Encodes the specified HookResponse message. Does not implicitly {@link wasmhooks.v1.HookResponse.verify|verify} messages.
             * @param message HookResponse message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encode(message: wasmhooks.v1.HookResponse.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Decodes a HookResponse message from the specified reader or buffer.
             * @param reader Reader or buffer to decode from
             * @param [length] Message length if known beforehand
             * @returns {wasmhooks.v1.HookResponse & wasmhooks.v1.HookResponse.$Shape} HookResponse
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): wasmhooks.v1.HookResponse & wasmhooks.v1.HookResponse.$Shape;

            /**
             * Gets the type url for HookResponse
             * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
             * @returns The type url
             */
            static getTypeUrl(prefix?: string): string;
        }

        namespace HookResponse {

            /** Properties of a HookResponse. */
            interface $Properties {

                /** HookResponse decision */
                decision?: (wasmhooks.v1.Decision|null);

                /** HookResponse reason */
                reason?: (string|null);

                /** HookResponse updatedInputJson */
                updatedInputJson?: (string|null);

                /** HookResponse additionalContext */
                additionalContext?: (string|null);

                /** HookResponse systemMessage */
                systemMessage?: (string|null);

                /** HookResponse updatedOutputJson */
                updatedOutputJson?: (string|null);

                /** HookResponse updatedPermissionsJson */
                updatedPermissionsJson?: (string|null);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];
            }

            /** Shape of a HookResponse. */
            type $Shape = wasmhooks.v1.HookResponse.$Properties;
        }

        /**
         * Properties of a ToolRequest.
         * @deprecated Use wasmhooks.v1.ToolRequest.$Properties instead.
         */
        interface IToolRequest extends wasmhooks.v1.ToolRequest.$Properties {
        }

        /** Represents a ToolRequest. */
        class ToolRequest {

            /**
             * Constructs a new ToolRequest.
             * @param [properties] Properties to set
             */
            constructor(properties?: wasmhooks.v1.ToolRequest.$Properties);

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];

            /** ToolRequest name. */
            name: string;

            /** ToolRequest inputJson. */
            inputJson: string;

            /** ToolRequest context. */
            context?: (wasmhooks.v1.HookContext.$Properties|null);

            /**
             * Encodes the specified ToolRequest message. Does not implicitly {@link wasmhooks.v1.ToolRequest.verify|verify} messages.
             * @param message ToolRequest message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encode(message: wasmhooks.v1.ToolRequest.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Decodes a ToolRequest message from the specified reader or buffer.
             * @param reader Reader or buffer to decode from
             * @param [length] Message length if known beforehand
             * @returns {wasmhooks.v1.ToolRequest & wasmhooks.v1.ToolRequest.$Shape} ToolRequest
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): wasmhooks.v1.ToolRequest & wasmhooks.v1.ToolRequest.$Shape;

            /**
             * Gets the type url for ToolRequest
             * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
             * @returns The type url
             */
            static getTypeUrl(prefix?: string): string;
        }

        namespace ToolRequest {

            /** Properties of a ToolRequest. */
            interface $Properties {

                /** ToolRequest name */
                name?: (string|null);

                /** ToolRequest inputJson */
                inputJson?: (string|null);

                /** ToolRequest context */
                context?: (wasmhooks.v1.HookContext.$Properties|null);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];
            }

            /** Shape of a ToolRequest. */
            type $Shape = wasmhooks.v1.ToolRequest.$Properties;
        }

        /**
         * Properties of a ToolResponse.
         * @deprecated Use wasmhooks.v1.ToolResponse.$Properties instead.
         */
        interface IToolResponse extends wasmhooks.v1.ToolResponse.$Properties {
        }

        /** Represents a ToolResponse. */
        class ToolResponse {

            /**
             * Constructs a new ToolResponse.
             * @param [properties] Properties to set
             */
            constructor(properties?: wasmhooks.v1.ToolResponse.$Properties);

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];

            /** ToolResponse content. */
            content: string;

            /** ToolResponse isError. */
            isError: boolean;

            /**
             * Encodes the specified ToolResponse message. Does not implicitly {@link wasmhooks.v1.ToolResponse.verify|verify} messages.
             * @param message ToolResponse message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encode(message: wasmhooks.v1.ToolResponse.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Decodes a ToolResponse message from the specified reader or buffer.
             * @param reader Reader or buffer to decode from
             * @param [length] Message length if known beforehand
             * @returns {wasmhooks.v1.ToolResponse & wasmhooks.v1.ToolResponse.$Shape} ToolResponse
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): wasmhooks.v1.ToolResponse & wasmhooks.v1.ToolResponse.$Shape;

            /**
             * Gets the type url for ToolResponse
             * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
             * @returns The type url
             */
            static getTypeUrl(prefix?: string): string;
        }

        namespace ToolResponse {

            /** Properties of a ToolResponse. */
            interface $Properties {

                /** ToolResponse content */
                content?: (string|null);

                /** ToolResponse isError */
                isError?: (boolean|null);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];
            }

            /** Shape of a ToolResponse. */
            type $Shape = wasmhooks.v1.ToolResponse.$Properties;
        }
    }
}
