/*eslint-disable block-scoped-var, id-length, no-control-regex, no-magic-numbers, no-mixed-operators, no-prototype-builtins, no-redeclare, no-shadow, no-var, sort-vars, default-case, jsdoc/require-param*/
import $protobuf from "protobufjs/minimal.js";

// Common aliases
const $Reader = $protobuf.Reader, $Writer = $protobuf.Writer, $util = $protobuf.util;
const $Object = $util.global.Object, $undefined = $util.global.undefined, $Error = $util.global.Error, $RangeError = $util.global.RangeError;

// Exported root namespace
const $root = $protobuf.roots["default"] || ($protobuf.roots["default"] = {});

export const wasmhooks = $root.wasmhooks = (() => {

    /**
     * Namespace wasmhooks.
     * @exports wasmhooks
     * @namespace
     */
    const wasmhooks = {};

    wasmhooks.v1 = (function() {

        /**
         * Namespace v1.
         * @memberof wasmhooks
         * @namespace
         */
        const v1 = {};

        /**
         * HookEvent enum.
         * @name wasmhooks.v1.HookEvent
         * @enum {number}
         * @property {number} HOOK_EVENT_UNSPECIFIED=0 HOOK_EVENT_UNSPECIFIED value
         * @property {number} HOOK_EVENT_SESSION_START=1 HOOK_EVENT_SESSION_START value
         * @property {number} HOOK_EVENT_SESSION_END=2 HOOK_EVENT_SESSION_END value
         * @property {number} HOOK_EVENT_USER_PROMPT_SUBMIT=3 HOOK_EVENT_USER_PROMPT_SUBMIT value
         * @property {number} HOOK_EVENT_ITERATION_START=4 HOOK_EVENT_ITERATION_START value
         * @property {number} HOOK_EVENT_PRE_TOOL_BATCH=5 HOOK_EVENT_PRE_TOOL_BATCH value
         * @property {number} HOOK_EVENT_PRE_TOOL_USE=6 HOOK_EVENT_PRE_TOOL_USE value
         * @property {number} HOOK_EVENT_PERMISSION_REQUEST=7 HOOK_EVENT_PERMISSION_REQUEST value
         * @property {number} HOOK_EVENT_POST_TOOL_USE=8 HOOK_EVENT_POST_TOOL_USE value
         * @property {number} HOOK_EVENT_POST_TOOL_USE_FAILURE=9 HOOK_EVENT_POST_TOOL_USE_FAILURE value
         * @property {number} HOOK_EVENT_POST_TOOL_BATCH=10 HOOK_EVENT_POST_TOOL_BATCH value
         * @property {number} HOOK_EVENT_STOP=11 HOOK_EVENT_STOP value
         * @property {number} HOOK_EVENT_STOP_FAILURE=12 HOOK_EVENT_STOP_FAILURE value
         * @property {number} HOOK_EVENT_SUBAGENT_START=13 HOOK_EVENT_SUBAGENT_START value
         * @property {number} HOOK_EVENT_SUBAGENT_STOP=14 HOOK_EVENT_SUBAGENT_STOP value
         * @property {number} HOOK_EVENT_PRE_COMPACT=15 HOOK_EVENT_PRE_COMPACT value
         * @property {number} HOOK_EVENT_POST_COMPACT=16 HOOK_EVENT_POST_COMPACT value
         * @property {number} HOOK_EVENT_NOTIFICATION=17 HOOK_EVENT_NOTIFICATION value
         * @property {number} HOOK_EVENT_ERROR=18 HOOK_EVENT_ERROR value
         */
        v1.HookEvent = (function() {
            const valuesById = $Object.create(null), values = $Object.create(valuesById);
            values[valuesById[0] = "HOOK_EVENT_UNSPECIFIED"] = 0;
            values[valuesById[1] = "HOOK_EVENT_SESSION_START"] = 1;
            values[valuesById[2] = "HOOK_EVENT_SESSION_END"] = 2;
            values[valuesById[3] = "HOOK_EVENT_USER_PROMPT_SUBMIT"] = 3;
            values[valuesById[4] = "HOOK_EVENT_ITERATION_START"] = 4;
            values[valuesById[5] = "HOOK_EVENT_PRE_TOOL_BATCH"] = 5;
            values[valuesById[6] = "HOOK_EVENT_PRE_TOOL_USE"] = 6;
            values[valuesById[7] = "HOOK_EVENT_PERMISSION_REQUEST"] = 7;
            values[valuesById[8] = "HOOK_EVENT_POST_TOOL_USE"] = 8;
            values[valuesById[9] = "HOOK_EVENT_POST_TOOL_USE_FAILURE"] = 9;
            values[valuesById[10] = "HOOK_EVENT_POST_TOOL_BATCH"] = 10;
            values[valuesById[11] = "HOOK_EVENT_STOP"] = 11;
            values[valuesById[12] = "HOOK_EVENT_STOP_FAILURE"] = 12;
            values[valuesById[13] = "HOOK_EVENT_SUBAGENT_START"] = 13;
            values[valuesById[14] = "HOOK_EVENT_SUBAGENT_STOP"] = 14;
            values[valuesById[15] = "HOOK_EVENT_PRE_COMPACT"] = 15;
            values[valuesById[16] = "HOOK_EVENT_POST_COMPACT"] = 16;
            values[valuesById[17] = "HOOK_EVENT_NOTIFICATION"] = 17;
            values[valuesById[18] = "HOOK_EVENT_ERROR"] = 18;
            return values;
        })();

        /**
         * FailurePolicy enum.
         * @name wasmhooks.v1.FailurePolicy
         * @enum {number}
         * @property {number} FAILURE_POLICY_UNSPECIFIED=0 FAILURE_POLICY_UNSPECIFIED value
         * @property {number} FAILURE_POLICY_FAIL_CLOSED=1 FAILURE_POLICY_FAIL_CLOSED value
         * @property {number} FAILURE_POLICY_FAIL_OPEN=2 FAILURE_POLICY_FAIL_OPEN value
         */
        v1.FailurePolicy = (function() {
            const valuesById = $Object.create(null), values = $Object.create(valuesById);
            values[valuesById[0] = "FAILURE_POLICY_UNSPECIFIED"] = 0;
            values[valuesById[1] = "FAILURE_POLICY_FAIL_CLOSED"] = 1;
            values[valuesById[2] = "FAILURE_POLICY_FAIL_OPEN"] = 2;
            return values;
        })();

        v1.HookBinding = (function() {

            /**
             * Properties of a HookBinding.
             * @typedef {Object} wasmhooks.v1.HookBinding.$Properties
             * @property {wasmhooks.v1.HookEvent|null} [event] HookBinding event
             * @property {string|null} [matcher] HookBinding matcher
             * @property {wasmhooks.v1.FailurePolicy|null} [failurePolicy] HookBinding failurePolicy
             * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
             */

            /**
             * Properties of a HookBinding.
             * @memberof wasmhooks.v1
             * @interface IHookBinding
             * @augments wasmhooks.v1.HookBinding.$Properties
             * @deprecated Use wasmhooks.v1.HookBinding.$Properties instead.
             */

            /**
             * Shape of a HookBinding.
             * @typedef {wasmhooks.v1.HookBinding.$Properties} wasmhooks.v1.HookBinding.$Shape
             */

            /**
             * Constructs a new HookBinding.
             * @memberof wasmhooks.v1
             * @classdesc Represents a HookBinding.
             * @constructor
             * @param {wasmhooks.v1.HookBinding.$Properties=} [properties] Properties to set
             * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
             */
            const HookBinding = function (properties) {
                if (properties)
                    for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                        if (properties[keys[i]] != null && keys[i] !== "__proto__")
                            this[keys[i]] = properties[keys[i]];
            };

            /**
             * HookBinding event.
             * @member {wasmhooks.v1.HookEvent} event
             * @memberof wasmhooks.v1.HookBinding
             * @instance
             */
            HookBinding.prototype.event = 0;

            /**
             * HookBinding matcher.
             * @member {string} matcher
             * @memberof wasmhooks.v1.HookBinding
             * @instance
             */
            HookBinding.prototype.matcher = "";

            /**
             * HookBinding failurePolicy.
             * @member {wasmhooks.v1.FailurePolicy} failurePolicy
             * @memberof wasmhooks.v1.HookBinding
             * @instance
             */
            HookBinding.prototype.failurePolicy = 0;

            /**
             * Encodes the specified HookBinding message. Does not implicitly {@link wasmhooks.v1.HookBinding.verify|verify} messages.
             * @function encode
             * @memberof wasmhooks.v1.HookBinding
             * @static
             * @param {wasmhooks.v1.HookBinding.$Properties} message HookBinding message or plain object to encode
             * @param {$protobuf.Writer} [writer] Writer to encode to
             * @returns {$protobuf.Writer} Writer
             */
            HookBinding.encode = function (message, writer, _depth) {
                if (!writer)
                    writer = $Writer.create();
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (message.event != null && $Object.hasOwnProperty.call(message, "event") && message.event !== 0)
                    writer.uint32(/* id 1, wireType 0 =*/8).int32(message.event);
                if (message.matcher != null && $Object.hasOwnProperty.call(message, "matcher") && message.matcher !== "")
                    writer.uint32(/* id 2, wireType 2 =*/18).string(message.matcher);
                if (message.failurePolicy != null && $Object.hasOwnProperty.call(message, "failurePolicy") && message.failurePolicy !== 0)
                    writer.uint32(/* id 3, wireType 0 =*/24).int32(message.failurePolicy);
                if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                    for (let i = 0; i < message.$unknowns.length; ++i)
                        writer.raw(message.$unknowns[i]);
                return writer;
            };

            /**
             * Decodes a HookBinding message from the specified reader or buffer.
             * @function decode
             * @memberof wasmhooks.v1.HookBinding
             * @static
             * @param {$protobuf.Reader|Uint8Array} reader Reader or buffer to decode from
             * @param {number} [length] Message length if known beforehand
             * @returns {wasmhooks.v1.HookBinding & wasmhooks.v1.HookBinding.$Shape} HookBinding
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            HookBinding.decode = function (reader, length, _end, _depth, _target) {
                if (!(reader instanceof $Reader))
                    reader = $Reader.create(reader);
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                let end, message, value;
                if (length === $undefined)
                    end = reader.len;
                else {
                    end = reader.pos + length;
                    if (end > reader.len)
                        throw $RangeError("index out of range");
                    length = reader.len;
                    reader.len = end;
                }
                message = _target || new $root.wasmhooks.v1.HookBinding();
                while (reader.pos < end) {
                    let start = reader.pos;
                    let tag = reader.tag();
                    if (tag === _end) {
                        _end = $undefined;
                        break;
                    }
                    let wireType = tag & 7;
                    switch (tag >>>= 3) {
                    case 1: {
                            if (wireType !== 0)
                                break;
                            if (value = reader.int32())
                                message.event = value;
                            else
                                delete message.event;
                            continue;
                        }
                    case 2: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.stringVerify()).length)
                                message.matcher = value;
                            else
                                delete message.matcher;
                            continue;
                        }
                    case 3: {
                            if (wireType !== 0)
                                break;
                            if (value = reader.int32())
                                message.failurePolicy = value;
                            else
                                delete message.failurePolicy;
                            continue;
                        }
                    }
                    reader.skipType(wireType, _depth, tag);
                    if (!reader.discardUnknown) {
                        $util.makeProp(message, "$unknowns", false);
                        (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                    }
                }
                if (length !== $undefined) {
                    if (reader.pos !== end)
                        throw $RangeError("index out of range");
                    reader.len = length;
                }
                if (_end !== $undefined)
                    throw $Error("missing end group");
                return message;
            };

            /**
             * Gets the type url for HookBinding
             * @function getTypeUrl
             * @memberof wasmhooks.v1.HookBinding
             * @static
             * @param {string} [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
             * @returns {string} The type url
             */
            HookBinding.getTypeUrl = function(prefix) {
                if (prefix === $undefined)
                    prefix = "type.googleapis.com";
                return prefix + "/wasmhooks.v1.HookBinding";
            };

            return HookBinding;
        })();

        v1.ToolSpec = (function() {

            /**
             * Properties of a ToolSpec.
             * @typedef {Object} wasmhooks.v1.ToolSpec.$Properties
             * @property {string|null} [name] ToolSpec name
             * @property {string|null} [description] ToolSpec description
             * @property {string|null} [inputSchemaJson] ToolSpec inputSchemaJson
             * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
             */

            /**
             * Properties of a ToolSpec.
             * @memberof wasmhooks.v1
             * @interface IToolSpec
             * @augments wasmhooks.v1.ToolSpec.$Properties
             * @deprecated Use wasmhooks.v1.ToolSpec.$Properties instead.
             */

            /**
             * Shape of a ToolSpec.
             * @typedef {wasmhooks.v1.ToolSpec.$Properties} wasmhooks.v1.ToolSpec.$Shape
             */

            /**
             * Constructs a new ToolSpec.
             * @memberof wasmhooks.v1
             * @classdesc Represents a ToolSpec.
             * @constructor
             * @param {wasmhooks.v1.ToolSpec.$Properties=} [properties] Properties to set
             * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
             */
            const ToolSpec = function (properties) {
                if (properties)
                    for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                        if (properties[keys[i]] != null && keys[i] !== "__proto__")
                            this[keys[i]] = properties[keys[i]];
            };

            /**
             * ToolSpec name.
             * @member {string} name
             * @memberof wasmhooks.v1.ToolSpec
             * @instance
             */
            ToolSpec.prototype.name = "";

            /**
             * ToolSpec description.
             * @member {string} description
             * @memberof wasmhooks.v1.ToolSpec
             * @instance
             */
            ToolSpec.prototype.description = "";

            /**
             * ToolSpec inputSchemaJson.
             * @member {string} inputSchemaJson
             * @memberof wasmhooks.v1.ToolSpec
             * @instance
             */
            ToolSpec.prototype.inputSchemaJson = "";

            /**
             * Encodes the specified ToolSpec message. Does not implicitly {@link wasmhooks.v1.ToolSpec.verify|verify} messages.
             * @function encode
             * @memberof wasmhooks.v1.ToolSpec
             * @static
             * @param {wasmhooks.v1.ToolSpec.$Properties} message ToolSpec message or plain object to encode
             * @param {$protobuf.Writer} [writer] Writer to encode to
             * @returns {$protobuf.Writer} Writer
             */
            ToolSpec.encode = function (message, writer, _depth) {
                if (!writer)
                    writer = $Writer.create();
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (message.name != null && $Object.hasOwnProperty.call(message, "name") && message.name !== "")
                    writer.uint32(/* id 1, wireType 2 =*/10).string(message.name);
                if (message.description != null && $Object.hasOwnProperty.call(message, "description") && message.description !== "")
                    writer.uint32(/* id 2, wireType 2 =*/18).string(message.description);
                if (message.inputSchemaJson != null && $Object.hasOwnProperty.call(message, "inputSchemaJson") && message.inputSchemaJson !== "")
                    writer.uint32(/* id 3, wireType 2 =*/26).string(message.inputSchemaJson);
                if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                    for (let i = 0; i < message.$unknowns.length; ++i)
                        writer.raw(message.$unknowns[i]);
                return writer;
            };

            /**
             * Decodes a ToolSpec message from the specified reader or buffer.
             * @function decode
             * @memberof wasmhooks.v1.ToolSpec
             * @static
             * @param {$protobuf.Reader|Uint8Array} reader Reader or buffer to decode from
             * @param {number} [length] Message length if known beforehand
             * @returns {wasmhooks.v1.ToolSpec & wasmhooks.v1.ToolSpec.$Shape} ToolSpec
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            ToolSpec.decode = function (reader, length, _end, _depth, _target) {
                if (!(reader instanceof $Reader))
                    reader = $Reader.create(reader);
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                let end, message, value;
                if (length === $undefined)
                    end = reader.len;
                else {
                    end = reader.pos + length;
                    if (end > reader.len)
                        throw $RangeError("index out of range");
                    length = reader.len;
                    reader.len = end;
                }
                message = _target || new $root.wasmhooks.v1.ToolSpec();
                while (reader.pos < end) {
                    let start = reader.pos;
                    let tag = reader.tag();
                    if (tag === _end) {
                        _end = $undefined;
                        break;
                    }
                    let wireType = tag & 7;
                    switch (tag >>>= 3) {
                    case 1: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.stringVerify()).length)
                                message.name = value;
                            else
                                delete message.name;
                            continue;
                        }
                    case 2: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.stringVerify()).length)
                                message.description = value;
                            else
                                delete message.description;
                            continue;
                        }
                    case 3: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.stringVerify()).length)
                                message.inputSchemaJson = value;
                            else
                                delete message.inputSchemaJson;
                            continue;
                        }
                    }
                    reader.skipType(wireType, _depth, tag);
                    if (!reader.discardUnknown) {
                        $util.makeProp(message, "$unknowns", false);
                        (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                    }
                }
                if (length !== $undefined) {
                    if (reader.pos !== end)
                        throw $RangeError("index out of range");
                    reader.len = length;
                }
                if (_end !== $undefined)
                    throw $Error("missing end group");
                return message;
            };

            /**
             * Gets the type url for ToolSpec
             * @function getTypeUrl
             * @memberof wasmhooks.v1.ToolSpec
             * @static
             * @param {string} [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
             * @returns {string} The type url
             */
            ToolSpec.getTypeUrl = function(prefix) {
                if (prefix === $undefined)
                    prefix = "type.googleapis.com";
                return prefix + "/wasmhooks.v1.ToolSpec";
            };

            return ToolSpec;
        })();

        v1.Grants = (function() {

            /**
             * Properties of a Grants.
             * @typedef {Object} wasmhooks.v1.Grants.$Properties
             * @property {Array.<string>|null} [networkHosts] Grants networkHosts
             * @property {Array.<string>|null} [filePaths] Grants filePaths
             * @property {Array.<string>|null} [configKeys] Grants configKeys
             * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
             */

            /**
             * Properties of a Grants.
             * @memberof wasmhooks.v1
             * @interface IGrants
             * @augments wasmhooks.v1.Grants.$Properties
             * @deprecated Use wasmhooks.v1.Grants.$Properties instead.
             */

            /**
             * Shape of a Grants.
             * @typedef {wasmhooks.v1.Grants.$Properties} wasmhooks.v1.Grants.$Shape
             */

            /**
             * Constructs a new Grants.
             * @memberof wasmhooks.v1
             * @classdesc Represents a Grants.
             * @constructor
             * @param {wasmhooks.v1.Grants.$Properties=} [properties] Properties to set
             * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
             */
            const Grants = function (properties) {
                this.networkHosts = [];
                this.filePaths = [];
                this.configKeys = [];
                if (properties)
                    for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                        if (properties[keys[i]] != null && keys[i] !== "__proto__")
                            this[keys[i]] = properties[keys[i]];
            };

            /**
             * Grants networkHosts.
             * @member {Array.<string>} networkHosts
             * @memberof wasmhooks.v1.Grants
             * @instance
             */
            Grants.prototype.networkHosts = $util.emptyArray;

            /**
             * Grants filePaths.
             * @member {Array.<string>} filePaths
             * @memberof wasmhooks.v1.Grants
             * @instance
             */
            Grants.prototype.filePaths = $util.emptyArray;

            /**
             * Grants configKeys.
             * @member {Array.<string>} configKeys
             * @memberof wasmhooks.v1.Grants
             * @instance
             */
            Grants.prototype.configKeys = $util.emptyArray;

            /**
             * Encodes the specified Grants message. Does not implicitly {@link wasmhooks.v1.Grants.verify|verify} messages.
             * @function encode
             * @memberof wasmhooks.v1.Grants
             * @static
             * @param {wasmhooks.v1.Grants.$Properties} message Grants message or plain object to encode
             * @param {$protobuf.Writer} [writer] Writer to encode to
             * @returns {$protobuf.Writer} Writer
             */
            Grants.encode = function (message, writer, _depth) {
                if (!writer)
                    writer = $Writer.create();
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (message.networkHosts != null && message.networkHosts.length)
                    for (let i = 0; i < message.networkHosts.length; ++i)
                        writer.uint32(/* id 1, wireType 2 =*/10).string(message.networkHosts[i]);
                if (message.filePaths != null && message.filePaths.length)
                    for (let i = 0; i < message.filePaths.length; ++i)
                        writer.uint32(/* id 2, wireType 2 =*/18).string(message.filePaths[i]);
                if (message.configKeys != null && message.configKeys.length)
                    for (let i = 0; i < message.configKeys.length; ++i)
                        writer.uint32(/* id 3, wireType 2 =*/26).string(message.configKeys[i]);
                if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                    for (let i = 0; i < message.$unknowns.length; ++i)
                        writer.raw(message.$unknowns[i]);
                return writer;
            };

            /**
             * Decodes a Grants message from the specified reader or buffer.
             * @function decode
             * @memberof wasmhooks.v1.Grants
             * @static
             * @param {$protobuf.Reader|Uint8Array} reader Reader or buffer to decode from
             * @param {number} [length] Message length if known beforehand
             * @returns {wasmhooks.v1.Grants & wasmhooks.v1.Grants.$Shape} Grants
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            Grants.decode = function (reader, length, _end, _depth, _target) {
                if (!(reader instanceof $Reader))
                    reader = $Reader.create(reader);
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                let end, message;
                if (length === $undefined)
                    end = reader.len;
                else {
                    end = reader.pos + length;
                    if (end > reader.len)
                        throw $RangeError("index out of range");
                    length = reader.len;
                    reader.len = end;
                }
                message = _target || new $root.wasmhooks.v1.Grants();
                while (reader.pos < end) {
                    let start = reader.pos;
                    let tag = reader.tag();
                    if (tag === _end) {
                        _end = $undefined;
                        break;
                    }
                    let wireType = tag & 7;
                    switch (tag >>>= 3) {
                    case 1: {
                            if (wireType !== 2)
                                break;
                            if (!(message.networkHosts && message.networkHosts.length))
                                message.networkHosts = [];
                            message.networkHosts.push(reader.stringVerify());
                            continue;
                        }
                    case 2: {
                            if (wireType !== 2)
                                break;
                            if (!(message.filePaths && message.filePaths.length))
                                message.filePaths = [];
                            message.filePaths.push(reader.stringVerify());
                            continue;
                        }
                    case 3: {
                            if (wireType !== 2)
                                break;
                            if (!(message.configKeys && message.configKeys.length))
                                message.configKeys = [];
                            message.configKeys.push(reader.stringVerify());
                            continue;
                        }
                    }
                    reader.skipType(wireType, _depth, tag);
                    if (!reader.discardUnknown) {
                        $util.makeProp(message, "$unknowns", false);
                        (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                    }
                }
                if (length !== $undefined) {
                    if (reader.pos !== end)
                        throw $RangeError("index out of range");
                    reader.len = length;
                }
                if (_end !== $undefined)
                    throw $Error("missing end group");
                return message;
            };

            /**
             * Gets the type url for Grants
             * @function getTypeUrl
             * @memberof wasmhooks.v1.Grants
             * @static
             * @param {string} [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
             * @returns {string} The type url
             */
            Grants.getTypeUrl = function(prefix) {
                if (prefix === $undefined)
                    prefix = "type.googleapis.com";
                return prefix + "/wasmhooks.v1.Grants";
            };

            return Grants;
        })();

        v1.PluginInfo = (function() {

            /**
             * Properties of a PluginInfo.
             * @typedef {Object} wasmhooks.v1.PluginInfo.$Properties
             * @property {string|null} [name] PluginInfo name
             * @property {string|null} [version] PluginInfo version
             * @property {number|null} [protocolVersion] PluginInfo protocolVersion
             * @property {Array.<wasmhooks.v1.HookBinding.$Properties>|null} [hooks] PluginInfo hooks
             * @property {Array.<wasmhooks.v1.ToolSpec.$Properties>|null} [tools] PluginInfo tools
             * @property {wasmhooks.v1.Grants.$Properties|null} [grants] PluginInfo grants
             * @property {string|null} [description] PluginInfo description
             * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
             */

            /**
             * Properties of a PluginInfo.
             * @memberof wasmhooks.v1
             * @interface IPluginInfo
             * @augments wasmhooks.v1.PluginInfo.$Properties
             * @deprecated Use wasmhooks.v1.PluginInfo.$Properties instead.
             */

            /**
             * Shape of a PluginInfo.
             * @typedef {wasmhooks.v1.PluginInfo.$Properties} wasmhooks.v1.PluginInfo.$Shape
             */

            /**
             * Constructs a new PluginInfo.
             * @memberof wasmhooks.v1
             * @classdesc Represents a PluginInfo.
             * @constructor
             * @param {wasmhooks.v1.PluginInfo.$Properties=} [properties] Properties to set
             * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
             */
            const PluginInfo = function (properties) {
                this.hooks = [];
                this.tools = [];
                if (properties)
                    for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                        if (properties[keys[i]] != null && keys[i] !== "__proto__")
                            this[keys[i]] = properties[keys[i]];
            };

            /**
             * PluginInfo name.
             * @member {string} name
             * @memberof wasmhooks.v1.PluginInfo
             * @instance
             */
            PluginInfo.prototype.name = "";

            /**
             * PluginInfo version.
             * @member {string} version
             * @memberof wasmhooks.v1.PluginInfo
             * @instance
             */
            PluginInfo.prototype.version = "";

            /**
             * PluginInfo protocolVersion.
             * @member {number} protocolVersion
             * @memberof wasmhooks.v1.PluginInfo
             * @instance
             */
            PluginInfo.prototype.protocolVersion = 0;

            /**
             * PluginInfo hooks.
             * @member {Array.<wasmhooks.v1.HookBinding.$Properties>} hooks
             * @memberof wasmhooks.v1.PluginInfo
             * @instance
             */
            PluginInfo.prototype.hooks = $util.emptyArray;

            /**
             * PluginInfo tools.
             * @member {Array.<wasmhooks.v1.ToolSpec.$Properties>} tools
             * @memberof wasmhooks.v1.PluginInfo
             * @instance
             */
            PluginInfo.prototype.tools = $util.emptyArray;

            /**
             * PluginInfo grants.
             * @member {wasmhooks.v1.Grants.$Properties|null|undefined} grants
             * @memberof wasmhooks.v1.PluginInfo
             * @instance
             */
            PluginInfo.prototype.grants = null;

            /**
             * PluginInfo description.
             * @member {string} description
             * @memberof wasmhooks.v1.PluginInfo
             * @instance
             */
            PluginInfo.prototype.description = "";

            /**
             * Encodes the specified PluginInfo message. Does not implicitly {@link wasmhooks.v1.PluginInfo.verify|verify} messages.
             * @function encode
             * @memberof wasmhooks.v1.PluginInfo
             * @static
             * @param {wasmhooks.v1.PluginInfo.$Properties} message PluginInfo message or plain object to encode
             * @param {$protobuf.Writer} [writer] Writer to encode to
             * @returns {$protobuf.Writer} Writer
             */
            PluginInfo.encode = function (message, writer, _depth) {
                if (!writer)
                    writer = $Writer.create();
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (message.name != null && $Object.hasOwnProperty.call(message, "name") && message.name !== "")
                    writer.uint32(/* id 1, wireType 2 =*/10).string(message.name);
                if (message.version != null && $Object.hasOwnProperty.call(message, "version") && message.version !== "")
                    writer.uint32(/* id 2, wireType 2 =*/18).string(message.version);
                if (message.protocolVersion != null && $Object.hasOwnProperty.call(message, "protocolVersion") && message.protocolVersion !== 0)
                    writer.uint32(/* id 3, wireType 0 =*/24).uint32(message.protocolVersion);
                if (message.hooks != null && message.hooks.length)
                    for (let i = 0; i < message.hooks.length; ++i)
                        $root.wasmhooks.v1.HookBinding.encode(message.hooks[i], writer.uint32(/* id 4, wireType 2 =*/34).fork(), _depth + 1).ldelim();
                if (message.tools != null && message.tools.length)
                    for (let i = 0; i < message.tools.length; ++i)
                        $root.wasmhooks.v1.ToolSpec.encode(message.tools[i], writer.uint32(/* id 5, wireType 2 =*/42).fork(), _depth + 1).ldelim();
                if (message.grants != null && $Object.hasOwnProperty.call(message, "grants"))
                    $root.wasmhooks.v1.Grants.encode(message.grants, writer.uint32(/* id 6, wireType 2 =*/50).fork(), _depth + 1).ldelim();
                if (message.description != null && $Object.hasOwnProperty.call(message, "description") && message.description !== "")
                    writer.uint32(/* id 7, wireType 2 =*/58).string(message.description);
                if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                    for (let i = 0; i < message.$unknowns.length; ++i)
                        writer.raw(message.$unknowns[i]);
                return writer;
            };

            /**
             * Decodes a PluginInfo message from the specified reader or buffer.
             * @function decode
             * @memberof wasmhooks.v1.PluginInfo
             * @static
             * @param {$protobuf.Reader|Uint8Array} reader Reader or buffer to decode from
             * @param {number} [length] Message length if known beforehand
             * @returns {wasmhooks.v1.PluginInfo & wasmhooks.v1.PluginInfo.$Shape} PluginInfo
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            PluginInfo.decode = function (reader, length, _end, _depth, _target) {
                if (!(reader instanceof $Reader))
                    reader = $Reader.create(reader);
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                let end, message, value;
                if (length === $undefined)
                    end = reader.len;
                else {
                    end = reader.pos + length;
                    if (end > reader.len)
                        throw $RangeError("index out of range");
                    length = reader.len;
                    reader.len = end;
                }
                message = _target || new $root.wasmhooks.v1.PluginInfo();
                while (reader.pos < end) {
                    let start = reader.pos;
                    let tag = reader.tag();
                    if (tag === _end) {
                        _end = $undefined;
                        break;
                    }
                    let wireType = tag & 7;
                    switch (tag >>>= 3) {
                    case 1: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.stringVerify()).length)
                                message.name = value;
                            else
                                delete message.name;
                            continue;
                        }
                    case 2: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.stringVerify()).length)
                                message.version = value;
                            else
                                delete message.version;
                            continue;
                        }
                    case 3: {
                            if (wireType !== 0)
                                break;
                            if (value = reader.uint32())
                                message.protocolVersion = value;
                            else
                                delete message.protocolVersion;
                            continue;
                        }
                    case 4: {
                            if (wireType !== 2)
                                break;
                            if (!(message.hooks && message.hooks.length))
                                message.hooks = [];
                            message.hooks.push($root.wasmhooks.v1.HookBinding.decode(reader, reader.size(), $undefined, _depth + 1));
                            continue;
                        }
                    case 5: {
                            if (wireType !== 2)
                                break;
                            if (!(message.tools && message.tools.length))
                                message.tools = [];
                            message.tools.push($root.wasmhooks.v1.ToolSpec.decode(reader, reader.size(), $undefined, _depth + 1));
                            continue;
                        }
                    case 6: {
                            if (wireType !== 2)
                                break;
                            message.grants = $root.wasmhooks.v1.Grants.decode(reader, reader.size(), $undefined, _depth + 1, message.grants);
                            continue;
                        }
                    case 7: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.stringVerify()).length)
                                message.description = value;
                            else
                                delete message.description;
                            continue;
                        }
                    }
                    reader.skipType(wireType, _depth, tag);
                    if (!reader.discardUnknown) {
                        $util.makeProp(message, "$unknowns", false);
                        (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                    }
                }
                if (length !== $undefined) {
                    if (reader.pos !== end)
                        throw $RangeError("index out of range");
                    reader.len = length;
                }
                if (_end !== $undefined)
                    throw $Error("missing end group");
                return message;
            };

            /**
             * Gets the type url for PluginInfo
             * @function getTypeUrl
             * @memberof wasmhooks.v1.PluginInfo
             * @static
             * @param {string} [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
             * @returns {string} The type url
             */
            PluginInfo.getTypeUrl = function(prefix) {
                if (prefix === $undefined)
                    prefix = "type.googleapis.com";
                return prefix + "/wasmhooks.v1.PluginInfo";
            };

            return PluginInfo;
        })();

        v1.HookContext = (function() {

            /**
             * Properties of a HookContext.
             * @typedef {Object} wasmhooks.v1.HookContext.$Properties
             * @property {string|null} [sessionId] HookContext sessionId
             * @property {number|null} [turn] HookContext turn
             * @property {number|null} [iteration] HookContext iteration
             * @property {string|null} [agentId] HookContext agentId
             * @property {string|null} [cwd] HookContext cwd
             * @property {string|null} [toolUseId] HookContext toolUseId
             * @property {string|null} [permissionMode] HookContext permissionMode
             * @property {string|null} [transcriptPath] HookContext transcriptPath
             * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
             */

            /**
             * Properties of a HookContext.
             * @memberof wasmhooks.v1
             * @interface IHookContext
             * @augments wasmhooks.v1.HookContext.$Properties
             * @deprecated Use wasmhooks.v1.HookContext.$Properties instead.
             */

            /**
             * Shape of a HookContext.
             * @typedef {wasmhooks.v1.HookContext.$Properties} wasmhooks.v1.HookContext.$Shape
             */

            /**
             * Constructs a new HookContext.
             * @memberof wasmhooks.v1
             * @classdesc Represents a HookContext.
             * @constructor
             * @param {wasmhooks.v1.HookContext.$Properties=} [properties] Properties to set
             * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
             */
            const HookContext = function (properties) {
                if (properties)
                    for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                        if (properties[keys[i]] != null && keys[i] !== "__proto__")
                            this[keys[i]] = properties[keys[i]];
            };

            /**
             * HookContext sessionId.
             * @member {string} sessionId
             * @memberof wasmhooks.v1.HookContext
             * @instance
             */
            HookContext.prototype.sessionId = "";

            /**
             * HookContext turn.
             * @member {number} turn
             * @memberof wasmhooks.v1.HookContext
             * @instance
             */
            HookContext.prototype.turn = 0;

            /**
             * HookContext iteration.
             * @member {number} iteration
             * @memberof wasmhooks.v1.HookContext
             * @instance
             */
            HookContext.prototype.iteration = 0;

            /**
             * HookContext agentId.
             * @member {string} agentId
             * @memberof wasmhooks.v1.HookContext
             * @instance
             */
            HookContext.prototype.agentId = "";

            /**
             * HookContext cwd.
             * @member {string} cwd
             * @memberof wasmhooks.v1.HookContext
             * @instance
             */
            HookContext.prototype.cwd = "";

            /**
             * HookContext toolUseId.
             * @member {string} toolUseId
             * @memberof wasmhooks.v1.HookContext
             * @instance
             */
            HookContext.prototype.toolUseId = "";

            /**
             * HookContext permissionMode.
             * @member {string} permissionMode
             * @memberof wasmhooks.v1.HookContext
             * @instance
             */
            HookContext.prototype.permissionMode = "";

            /**
             * HookContext transcriptPath.
             * @member {string} transcriptPath
             * @memberof wasmhooks.v1.HookContext
             * @instance
             */
            HookContext.prototype.transcriptPath = "";

            /**
             * Encodes the specified HookContext message. Does not implicitly {@link wasmhooks.v1.HookContext.verify|verify} messages.
             * @function encode
             * @memberof wasmhooks.v1.HookContext
             * @static
             * @param {wasmhooks.v1.HookContext.$Properties} message HookContext message or plain object to encode
             * @param {$protobuf.Writer} [writer] Writer to encode to
             * @returns {$protobuf.Writer} Writer
             */
            HookContext.encode = function (message, writer, _depth) {
                if (!writer)
                    writer = $Writer.create();
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (message.sessionId != null && $Object.hasOwnProperty.call(message, "sessionId") && message.sessionId !== "")
                    writer.uint32(/* id 1, wireType 2 =*/10).string(message.sessionId);
                if (message.turn != null && $Object.hasOwnProperty.call(message, "turn") && message.turn !== 0)
                    writer.uint32(/* id 2, wireType 0 =*/16).uint32(message.turn);
                if (message.iteration != null && $Object.hasOwnProperty.call(message, "iteration") && message.iteration !== 0)
                    writer.uint32(/* id 3, wireType 0 =*/24).uint32(message.iteration);
                if (message.agentId != null && $Object.hasOwnProperty.call(message, "agentId") && message.agentId !== "")
                    writer.uint32(/* id 4, wireType 2 =*/34).string(message.agentId);
                if (message.cwd != null && $Object.hasOwnProperty.call(message, "cwd") && message.cwd !== "")
                    writer.uint32(/* id 5, wireType 2 =*/42).string(message.cwd);
                if (message.toolUseId != null && $Object.hasOwnProperty.call(message, "toolUseId") && message.toolUseId !== "")
                    writer.uint32(/* id 6, wireType 2 =*/50).string(message.toolUseId);
                if (message.permissionMode != null && $Object.hasOwnProperty.call(message, "permissionMode") && message.permissionMode !== "")
                    writer.uint32(/* id 7, wireType 2 =*/58).string(message.permissionMode);
                if (message.transcriptPath != null && $Object.hasOwnProperty.call(message, "transcriptPath") && message.transcriptPath !== "")
                    writer.uint32(/* id 8, wireType 2 =*/66).string(message.transcriptPath);
                if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                    for (let i = 0; i < message.$unknowns.length; ++i)
                        writer.raw(message.$unknowns[i]);
                return writer;
            };

            /**
             * Decodes a HookContext message from the specified reader or buffer.
             * @function decode
             * @memberof wasmhooks.v1.HookContext
             * @static
             * @param {$protobuf.Reader|Uint8Array} reader Reader or buffer to decode from
             * @param {number} [length] Message length if known beforehand
             * @returns {wasmhooks.v1.HookContext & wasmhooks.v1.HookContext.$Shape} HookContext
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            HookContext.decode = function (reader, length, _end, _depth, _target) {
                if (!(reader instanceof $Reader))
                    reader = $Reader.create(reader);
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                let end, message, value;
                if (length === $undefined)
                    end = reader.len;
                else {
                    end = reader.pos + length;
                    if (end > reader.len)
                        throw $RangeError("index out of range");
                    length = reader.len;
                    reader.len = end;
                }
                message = _target || new $root.wasmhooks.v1.HookContext();
                while (reader.pos < end) {
                    let start = reader.pos;
                    let tag = reader.tag();
                    if (tag === _end) {
                        _end = $undefined;
                        break;
                    }
                    let wireType = tag & 7;
                    switch (tag >>>= 3) {
                    case 1: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.stringVerify()).length)
                                message.sessionId = value;
                            else
                                delete message.sessionId;
                            continue;
                        }
                    case 2: {
                            if (wireType !== 0)
                                break;
                            if (value = reader.uint32())
                                message.turn = value;
                            else
                                delete message.turn;
                            continue;
                        }
                    case 3: {
                            if (wireType !== 0)
                                break;
                            if (value = reader.uint32())
                                message.iteration = value;
                            else
                                delete message.iteration;
                            continue;
                        }
                    case 4: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.stringVerify()).length)
                                message.agentId = value;
                            else
                                delete message.agentId;
                            continue;
                        }
                    case 5: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.stringVerify()).length)
                                message.cwd = value;
                            else
                                delete message.cwd;
                            continue;
                        }
                    case 6: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.stringVerify()).length)
                                message.toolUseId = value;
                            else
                                delete message.toolUseId;
                            continue;
                        }
                    case 7: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.stringVerify()).length)
                                message.permissionMode = value;
                            else
                                delete message.permissionMode;
                            continue;
                        }
                    case 8: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.stringVerify()).length)
                                message.transcriptPath = value;
                            else
                                delete message.transcriptPath;
                            continue;
                        }
                    }
                    reader.skipType(wireType, _depth, tag);
                    if (!reader.discardUnknown) {
                        $util.makeProp(message, "$unknowns", false);
                        (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                    }
                }
                if (length !== $undefined) {
                    if (reader.pos !== end)
                        throw $RangeError("index out of range");
                    reader.len = length;
                }
                if (_end !== $undefined)
                    throw $Error("missing end group");
                return message;
            };

            /**
             * Gets the type url for HookContext
             * @function getTypeUrl
             * @memberof wasmhooks.v1.HookContext
             * @static
             * @param {string} [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
             * @returns {string} The type url
             */
            HookContext.getTypeUrl = function(prefix) {
                if (prefix === $undefined)
                    prefix = "type.googleapis.com";
                return prefix + "/wasmhooks.v1.HookContext";
            };

            return HookContext;
        })();

        v1.SessionPayload = (function() {

            /**
             * Properties of a SessionPayload.
             * @typedef {Object} wasmhooks.v1.SessionPayload.$Properties
             * @property {string|null} [reason] SessionPayload reason
             * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
             */

            /**
             * Properties of a SessionPayload.
             * @memberof wasmhooks.v1
             * @interface ISessionPayload
             * @augments wasmhooks.v1.SessionPayload.$Properties
             * @deprecated Use wasmhooks.v1.SessionPayload.$Properties instead.
             */

            /**
             * Shape of a SessionPayload.
             * @typedef {wasmhooks.v1.SessionPayload.$Properties} wasmhooks.v1.SessionPayload.$Shape
             */

            /**
             * Constructs a new SessionPayload.
             * @memberof wasmhooks.v1
             * @classdesc Represents a SessionPayload.
             * @constructor
             * @param {wasmhooks.v1.SessionPayload.$Properties=} [properties] Properties to set
             * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
             */
            const SessionPayload = function (properties) {
                if (properties)
                    for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                        if (properties[keys[i]] != null && keys[i] !== "__proto__")
                            this[keys[i]] = properties[keys[i]];
            };

            /**
             * SessionPayload reason.
             * @member {string} reason
             * @memberof wasmhooks.v1.SessionPayload
             * @instance
             */
            SessionPayload.prototype.reason = "";

            /**
             * Encodes the specified SessionPayload message. Does not implicitly {@link wasmhooks.v1.SessionPayload.verify|verify} messages.
             * @function encode
             * @memberof wasmhooks.v1.SessionPayload
             * @static
             * @param {wasmhooks.v1.SessionPayload.$Properties} message SessionPayload message or plain object to encode
             * @param {$protobuf.Writer} [writer] Writer to encode to
             * @returns {$protobuf.Writer} Writer
             */
            SessionPayload.encode = function (message, writer, _depth) {
                if (!writer)
                    writer = $Writer.create();
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (message.reason != null && $Object.hasOwnProperty.call(message, "reason") && message.reason !== "")
                    writer.uint32(/* id 1, wireType 2 =*/10).string(message.reason);
                if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                    for (let i = 0; i < message.$unknowns.length; ++i)
                        writer.raw(message.$unknowns[i]);
                return writer;
            };

            /**
             * Decodes a SessionPayload message from the specified reader or buffer.
             * @function decode
             * @memberof wasmhooks.v1.SessionPayload
             * @static
             * @param {$protobuf.Reader|Uint8Array} reader Reader or buffer to decode from
             * @param {number} [length] Message length if known beforehand
             * @returns {wasmhooks.v1.SessionPayload & wasmhooks.v1.SessionPayload.$Shape} SessionPayload
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            SessionPayload.decode = function (reader, length, _end, _depth, _target) {
                if (!(reader instanceof $Reader))
                    reader = $Reader.create(reader);
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                let end, message, value;
                if (length === $undefined)
                    end = reader.len;
                else {
                    end = reader.pos + length;
                    if (end > reader.len)
                        throw $RangeError("index out of range");
                    length = reader.len;
                    reader.len = end;
                }
                message = _target || new $root.wasmhooks.v1.SessionPayload();
                while (reader.pos < end) {
                    let start = reader.pos;
                    let tag = reader.tag();
                    if (tag === _end) {
                        _end = $undefined;
                        break;
                    }
                    let wireType = tag & 7;
                    switch (tag >>>= 3) {
                    case 1: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.stringVerify()).length)
                                message.reason = value;
                            else
                                delete message.reason;
                            continue;
                        }
                    }
                    reader.skipType(wireType, _depth, tag);
                    if (!reader.discardUnknown) {
                        $util.makeProp(message, "$unknowns", false);
                        (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                    }
                }
                if (length !== $undefined) {
                    if (reader.pos !== end)
                        throw $RangeError("index out of range");
                    reader.len = length;
                }
                if (_end !== $undefined)
                    throw $Error("missing end group");
                return message;
            };

            /**
             * Gets the type url for SessionPayload
             * @function getTypeUrl
             * @memberof wasmhooks.v1.SessionPayload
             * @static
             * @param {string} [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
             * @returns {string} The type url
             */
            SessionPayload.getTypeUrl = function(prefix) {
                if (prefix === $undefined)
                    prefix = "type.googleapis.com";
                return prefix + "/wasmhooks.v1.SessionPayload";
            };

            return SessionPayload;
        })();

        v1.PromptPayload = (function() {

            /**
             * Properties of a PromptPayload.
             * @typedef {Object} wasmhooks.v1.PromptPayload.$Properties
             * @property {string|null} [prompt] PromptPayload prompt
             * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
             */

            /**
             * Properties of a PromptPayload.
             * @memberof wasmhooks.v1
             * @interface IPromptPayload
             * @augments wasmhooks.v1.PromptPayload.$Properties
             * @deprecated Use wasmhooks.v1.PromptPayload.$Properties instead.
             */

            /**
             * Shape of a PromptPayload.
             * @typedef {wasmhooks.v1.PromptPayload.$Properties} wasmhooks.v1.PromptPayload.$Shape
             */

            /**
             * Constructs a new PromptPayload.
             * @memberof wasmhooks.v1
             * @classdesc Represents a PromptPayload.
             * @constructor
             * @param {wasmhooks.v1.PromptPayload.$Properties=} [properties] Properties to set
             * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
             */
            const PromptPayload = function (properties) {
                if (properties)
                    for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                        if (properties[keys[i]] != null && keys[i] !== "__proto__")
                            this[keys[i]] = properties[keys[i]];
            };

            /**
             * PromptPayload prompt.
             * @member {string} prompt
             * @memberof wasmhooks.v1.PromptPayload
             * @instance
             */
            PromptPayload.prototype.prompt = "";

            /**
             * Encodes the specified PromptPayload message. Does not implicitly {@link wasmhooks.v1.PromptPayload.verify|verify} messages.
             * @function encode
             * @memberof wasmhooks.v1.PromptPayload
             * @static
             * @param {wasmhooks.v1.PromptPayload.$Properties} message PromptPayload message or plain object to encode
             * @param {$protobuf.Writer} [writer] Writer to encode to
             * @returns {$protobuf.Writer} Writer
             */
            PromptPayload.encode = function (message, writer, _depth) {
                if (!writer)
                    writer = $Writer.create();
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (message.prompt != null && $Object.hasOwnProperty.call(message, "prompt") && message.prompt !== "")
                    writer.uint32(/* id 1, wireType 2 =*/10).string(message.prompt);
                if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                    for (let i = 0; i < message.$unknowns.length; ++i)
                        writer.raw(message.$unknowns[i]);
                return writer;
            };

            /**
             * Decodes a PromptPayload message from the specified reader or buffer.
             * @function decode
             * @memberof wasmhooks.v1.PromptPayload
             * @static
             * @param {$protobuf.Reader|Uint8Array} reader Reader or buffer to decode from
             * @param {number} [length] Message length if known beforehand
             * @returns {wasmhooks.v1.PromptPayload & wasmhooks.v1.PromptPayload.$Shape} PromptPayload
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            PromptPayload.decode = function (reader, length, _end, _depth, _target) {
                if (!(reader instanceof $Reader))
                    reader = $Reader.create(reader);
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                let end, message, value;
                if (length === $undefined)
                    end = reader.len;
                else {
                    end = reader.pos + length;
                    if (end > reader.len)
                        throw $RangeError("index out of range");
                    length = reader.len;
                    reader.len = end;
                }
                message = _target || new $root.wasmhooks.v1.PromptPayload();
                while (reader.pos < end) {
                    let start = reader.pos;
                    let tag = reader.tag();
                    if (tag === _end) {
                        _end = $undefined;
                        break;
                    }
                    let wireType = tag & 7;
                    switch (tag >>>= 3) {
                    case 1: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.stringVerify()).length)
                                message.prompt = value;
                            else
                                delete message.prompt;
                            continue;
                        }
                    }
                    reader.skipType(wireType, _depth, tag);
                    if (!reader.discardUnknown) {
                        $util.makeProp(message, "$unknowns", false);
                        (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                    }
                }
                if (length !== $undefined) {
                    if (reader.pos !== end)
                        throw $RangeError("index out of range");
                    reader.len = length;
                }
                if (_end !== $undefined)
                    throw $Error("missing end group");
                return message;
            };

            /**
             * Gets the type url for PromptPayload
             * @function getTypeUrl
             * @memberof wasmhooks.v1.PromptPayload
             * @static
             * @param {string} [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
             * @returns {string} The type url
             */
            PromptPayload.getTypeUrl = function(prefix) {
                if (prefix === $undefined)
                    prefix = "type.googleapis.com";
                return prefix + "/wasmhooks.v1.PromptPayload";
            };

            return PromptPayload;
        })();

        v1.ToolUsePayload = (function() {

            /**
             * Properties of a ToolUsePayload.
             * @typedef {Object} wasmhooks.v1.ToolUsePayload.$Properties
             * @property {string|null} [toolName] ToolUsePayload toolName
             * @property {string|null} [toolInputJson] ToolUsePayload toolInputJson
             * @property {boolean|null} [recheck] ToolUsePayload recheck
             * @property {string|null} [permissionSuggestionsJson] ToolUsePayload permissionSuggestionsJson
             * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
             */

            /**
             * Properties of a ToolUsePayload.
             * @memberof wasmhooks.v1
             * @interface IToolUsePayload
             * @augments wasmhooks.v1.ToolUsePayload.$Properties
             * @deprecated Use wasmhooks.v1.ToolUsePayload.$Properties instead.
             */

            /**
             * Shape of a ToolUsePayload.
             * @typedef {wasmhooks.v1.ToolUsePayload.$Properties} wasmhooks.v1.ToolUsePayload.$Shape
             */

            /**
             * Constructs a new ToolUsePayload.
             * @memberof wasmhooks.v1
             * @classdesc Represents a ToolUsePayload.
             * @constructor
             * @param {wasmhooks.v1.ToolUsePayload.$Properties=} [properties] Properties to set
             * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
             */
            const ToolUsePayload = function (properties) {
                if (properties)
                    for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                        if (properties[keys[i]] != null && keys[i] !== "__proto__")
                            this[keys[i]] = properties[keys[i]];
            };

            /**
             * ToolUsePayload toolName.
             * @member {string} toolName
             * @memberof wasmhooks.v1.ToolUsePayload
             * @instance
             */
            ToolUsePayload.prototype.toolName = "";

            /**
             * ToolUsePayload toolInputJson.
             * @member {string} toolInputJson
             * @memberof wasmhooks.v1.ToolUsePayload
             * @instance
             */
            ToolUsePayload.prototype.toolInputJson = "";

            /**
             * ToolUsePayload recheck.
             * @member {boolean} recheck
             * @memberof wasmhooks.v1.ToolUsePayload
             * @instance
             */
            ToolUsePayload.prototype.recheck = false;

            /**
             * ToolUsePayload permissionSuggestionsJson.
             * @member {string} permissionSuggestionsJson
             * @memberof wasmhooks.v1.ToolUsePayload
             * @instance
             */
            ToolUsePayload.prototype.permissionSuggestionsJson = "";

            /**
             * Encodes the specified ToolUsePayload message. Does not implicitly {@link wasmhooks.v1.ToolUsePayload.verify|verify} messages.
             * @function encode
             * @memberof wasmhooks.v1.ToolUsePayload
             * @static
             * @param {wasmhooks.v1.ToolUsePayload.$Properties} message ToolUsePayload message or plain object to encode
             * @param {$protobuf.Writer} [writer] Writer to encode to
             * @returns {$protobuf.Writer} Writer
             */
            ToolUsePayload.encode = function (message, writer, _depth) {
                if (!writer)
                    writer = $Writer.create();
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (message.toolName != null && $Object.hasOwnProperty.call(message, "toolName") && message.toolName !== "")
                    writer.uint32(/* id 1, wireType 2 =*/10).string(message.toolName);
                if (message.toolInputJson != null && $Object.hasOwnProperty.call(message, "toolInputJson") && message.toolInputJson !== "")
                    writer.uint32(/* id 2, wireType 2 =*/18).string(message.toolInputJson);
                if (message.recheck != null && $Object.hasOwnProperty.call(message, "recheck") && message.recheck !== false)
                    writer.uint32(/* id 3, wireType 0 =*/24).bool(message.recheck);
                if (message.permissionSuggestionsJson != null && $Object.hasOwnProperty.call(message, "permissionSuggestionsJson") && message.permissionSuggestionsJson !== "")
                    writer.uint32(/* id 4, wireType 2 =*/34).string(message.permissionSuggestionsJson);
                if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                    for (let i = 0; i < message.$unknowns.length; ++i)
                        writer.raw(message.$unknowns[i]);
                return writer;
            };

            /**
             * Decodes a ToolUsePayload message from the specified reader or buffer.
             * @function decode
             * @memberof wasmhooks.v1.ToolUsePayload
             * @static
             * @param {$protobuf.Reader|Uint8Array} reader Reader or buffer to decode from
             * @param {number} [length] Message length if known beforehand
             * @returns {wasmhooks.v1.ToolUsePayload & wasmhooks.v1.ToolUsePayload.$Shape} ToolUsePayload
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            ToolUsePayload.decode = function (reader, length, _end, _depth, _target) {
                if (!(reader instanceof $Reader))
                    reader = $Reader.create(reader);
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                let end, message, value;
                if (length === $undefined)
                    end = reader.len;
                else {
                    end = reader.pos + length;
                    if (end > reader.len)
                        throw $RangeError("index out of range");
                    length = reader.len;
                    reader.len = end;
                }
                message = _target || new $root.wasmhooks.v1.ToolUsePayload();
                while (reader.pos < end) {
                    let start = reader.pos;
                    let tag = reader.tag();
                    if (tag === _end) {
                        _end = $undefined;
                        break;
                    }
                    let wireType = tag & 7;
                    switch (tag >>>= 3) {
                    case 1: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.stringVerify()).length)
                                message.toolName = value;
                            else
                                delete message.toolName;
                            continue;
                        }
                    case 2: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.stringVerify()).length)
                                message.toolInputJson = value;
                            else
                                delete message.toolInputJson;
                            continue;
                        }
                    case 3: {
                            if (wireType !== 0)
                                break;
                            if (value = reader.bool())
                                message.recheck = value;
                            else
                                delete message.recheck;
                            continue;
                        }
                    case 4: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.stringVerify()).length)
                                message.permissionSuggestionsJson = value;
                            else
                                delete message.permissionSuggestionsJson;
                            continue;
                        }
                    }
                    reader.skipType(wireType, _depth, tag);
                    if (!reader.discardUnknown) {
                        $util.makeProp(message, "$unknowns", false);
                        (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                    }
                }
                if (length !== $undefined) {
                    if (reader.pos !== end)
                        throw $RangeError("index out of range");
                    reader.len = length;
                }
                if (_end !== $undefined)
                    throw $Error("missing end group");
                return message;
            };

            /**
             * Gets the type url for ToolUsePayload
             * @function getTypeUrl
             * @memberof wasmhooks.v1.ToolUsePayload
             * @static
             * @param {string} [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
             * @returns {string} The type url
             */
            ToolUsePayload.getTypeUrl = function(prefix) {
                if (prefix === $undefined)
                    prefix = "type.googleapis.com";
                return prefix + "/wasmhooks.v1.ToolUsePayload";
            };

            return ToolUsePayload;
        })();

        v1.ToolResultPayload = (function() {

            /**
             * Properties of a ToolResultPayload.
             * @typedef {Object} wasmhooks.v1.ToolResultPayload.$Properties
             * @property {string|null} [toolName] ToolResultPayload toolName
             * @property {string|null} [toolInputJson] ToolResultPayload toolInputJson
             * @property {string|null} [toolOutputJson] ToolResultPayload toolOutputJson
             * @property {string|null} [error] ToolResultPayload error
             * @property {number|null} [durationMs] ToolResultPayload durationMs
             * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
             */

            /**
             * Properties of a ToolResultPayload.
             * @memberof wasmhooks.v1
             * @interface IToolResultPayload
             * @augments wasmhooks.v1.ToolResultPayload.$Properties
             * @deprecated Use wasmhooks.v1.ToolResultPayload.$Properties instead.
             */

            /**
             * Shape of a ToolResultPayload.
             * @typedef {wasmhooks.v1.ToolResultPayload.$Properties} wasmhooks.v1.ToolResultPayload.$Shape
             */

            /**
             * Constructs a new ToolResultPayload.
             * @memberof wasmhooks.v1
             * @classdesc Represents a ToolResultPayload.
             * @constructor
             * @param {wasmhooks.v1.ToolResultPayload.$Properties=} [properties] Properties to set
             * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
             */
            const ToolResultPayload = function (properties) {
                if (properties)
                    for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                        if (properties[keys[i]] != null && keys[i] !== "__proto__")
                            this[keys[i]] = properties[keys[i]];
            };

            /**
             * ToolResultPayload toolName.
             * @member {string} toolName
             * @memberof wasmhooks.v1.ToolResultPayload
             * @instance
             */
            ToolResultPayload.prototype.toolName = "";

            /**
             * ToolResultPayload toolInputJson.
             * @member {string} toolInputJson
             * @memberof wasmhooks.v1.ToolResultPayload
             * @instance
             */
            ToolResultPayload.prototype.toolInputJson = "";

            /**
             * ToolResultPayload toolOutputJson.
             * @member {string} toolOutputJson
             * @memberof wasmhooks.v1.ToolResultPayload
             * @instance
             */
            ToolResultPayload.prototype.toolOutputJson = "";

            /**
             * ToolResultPayload error.
             * @member {string} error
             * @memberof wasmhooks.v1.ToolResultPayload
             * @instance
             */
            ToolResultPayload.prototype.error = "";

            /**
             * ToolResultPayload durationMs.
             * @member {number} durationMs
             * @memberof wasmhooks.v1.ToolResultPayload
             * @instance
             */
            ToolResultPayload.prototype.durationMs = 0;

            /**
             * Encodes the specified ToolResultPayload message. Does not implicitly {@link wasmhooks.v1.ToolResultPayload.verify|verify} messages.
             * @function encode
             * @memberof wasmhooks.v1.ToolResultPayload
             * @static
             * @param {wasmhooks.v1.ToolResultPayload.$Properties} message ToolResultPayload message or plain object to encode
             * @param {$protobuf.Writer} [writer] Writer to encode to
             * @returns {$protobuf.Writer} Writer
             */
            ToolResultPayload.encode = function (message, writer, _depth) {
                if (!writer)
                    writer = $Writer.create();
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (message.toolName != null && $Object.hasOwnProperty.call(message, "toolName") && message.toolName !== "")
                    writer.uint32(/* id 1, wireType 2 =*/10).string(message.toolName);
                if (message.toolInputJson != null && $Object.hasOwnProperty.call(message, "toolInputJson") && message.toolInputJson !== "")
                    writer.uint32(/* id 2, wireType 2 =*/18).string(message.toolInputJson);
                if (message.toolOutputJson != null && $Object.hasOwnProperty.call(message, "toolOutputJson") && message.toolOutputJson !== "")
                    writer.uint32(/* id 3, wireType 2 =*/26).string(message.toolOutputJson);
                if (message.error != null && $Object.hasOwnProperty.call(message, "error") && message.error !== "")
                    writer.uint32(/* id 4, wireType 2 =*/34).string(message.error);
                if (message.durationMs != null && $Object.hasOwnProperty.call(message, "durationMs") && message.durationMs !== 0)
                    writer.uint32(/* id 5, wireType 0 =*/40).uint32(message.durationMs);
                if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                    for (let i = 0; i < message.$unknowns.length; ++i)
                        writer.raw(message.$unknowns[i]);
                return writer;
            };

            /**
             * Decodes a ToolResultPayload message from the specified reader or buffer.
             * @function decode
             * @memberof wasmhooks.v1.ToolResultPayload
             * @static
             * @param {$protobuf.Reader|Uint8Array} reader Reader or buffer to decode from
             * @param {number} [length] Message length if known beforehand
             * @returns {wasmhooks.v1.ToolResultPayload & wasmhooks.v1.ToolResultPayload.$Shape} ToolResultPayload
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            ToolResultPayload.decode = function (reader, length, _end, _depth, _target) {
                if (!(reader instanceof $Reader))
                    reader = $Reader.create(reader);
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                let end, message, value;
                if (length === $undefined)
                    end = reader.len;
                else {
                    end = reader.pos + length;
                    if (end > reader.len)
                        throw $RangeError("index out of range");
                    length = reader.len;
                    reader.len = end;
                }
                message = _target || new $root.wasmhooks.v1.ToolResultPayload();
                while (reader.pos < end) {
                    let start = reader.pos;
                    let tag = reader.tag();
                    if (tag === _end) {
                        _end = $undefined;
                        break;
                    }
                    let wireType = tag & 7;
                    switch (tag >>>= 3) {
                    case 1: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.stringVerify()).length)
                                message.toolName = value;
                            else
                                delete message.toolName;
                            continue;
                        }
                    case 2: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.stringVerify()).length)
                                message.toolInputJson = value;
                            else
                                delete message.toolInputJson;
                            continue;
                        }
                    case 3: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.stringVerify()).length)
                                message.toolOutputJson = value;
                            else
                                delete message.toolOutputJson;
                            continue;
                        }
                    case 4: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.stringVerify()).length)
                                message.error = value;
                            else
                                delete message.error;
                            continue;
                        }
                    case 5: {
                            if (wireType !== 0)
                                break;
                            if (value = reader.uint32())
                                message.durationMs = value;
                            else
                                delete message.durationMs;
                            continue;
                        }
                    }
                    reader.skipType(wireType, _depth, tag);
                    if (!reader.discardUnknown) {
                        $util.makeProp(message, "$unknowns", false);
                        (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                    }
                }
                if (length !== $undefined) {
                    if (reader.pos !== end)
                        throw $RangeError("index out of range");
                    reader.len = length;
                }
                if (_end !== $undefined)
                    throw $Error("missing end group");
                return message;
            };

            /**
             * Gets the type url for ToolResultPayload
             * @function getTypeUrl
             * @memberof wasmhooks.v1.ToolResultPayload
             * @static
             * @param {string} [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
             * @returns {string} The type url
             */
            ToolResultPayload.getTypeUrl = function(prefix) {
                if (prefix === $undefined)
                    prefix = "type.googleapis.com";
                return prefix + "/wasmhooks.v1.ToolResultPayload";
            };

            return ToolResultPayload;
        })();

        v1.ToolCall = (function() {

            /**
             * Properties of a ToolCall.
             * @typedef {Object} wasmhooks.v1.ToolCall.$Properties
             * @property {string|null} [id] ToolCall id
             * @property {string|null} [name] ToolCall name
             * @property {string|null} [inputJson] ToolCall inputJson
             * @property {string|null} [responseJson] ToolCall responseJson
             * @property {boolean|null} [isError] ToolCall isError
             * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
             */

            /**
             * Properties of a ToolCall.
             * @memberof wasmhooks.v1
             * @interface IToolCall
             * @augments wasmhooks.v1.ToolCall.$Properties
             * @deprecated Use wasmhooks.v1.ToolCall.$Properties instead.
             */

            /**
             * Shape of a ToolCall.
             * @typedef {wasmhooks.v1.ToolCall.$Properties} wasmhooks.v1.ToolCall.$Shape
             */

            /**
             * Constructs a new ToolCall.
             * @memberof wasmhooks.v1
             * @classdesc Represents a ToolCall.
             * @constructor
             * @param {wasmhooks.v1.ToolCall.$Properties=} [properties] Properties to set
             * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
             */
            const ToolCall = function (properties) {
                if (properties)
                    for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                        if (properties[keys[i]] != null && keys[i] !== "__proto__")
                            this[keys[i]] = properties[keys[i]];
            };

            /**
             * ToolCall id.
             * @member {string} id
             * @memberof wasmhooks.v1.ToolCall
             * @instance
             */
            ToolCall.prototype.id = "";

            /**
             * ToolCall name.
             * @member {string} name
             * @memberof wasmhooks.v1.ToolCall
             * @instance
             */
            ToolCall.prototype.name = "";

            /**
             * ToolCall inputJson.
             * @member {string} inputJson
             * @memberof wasmhooks.v1.ToolCall
             * @instance
             */
            ToolCall.prototype.inputJson = "";

            /**
             * ToolCall responseJson.
             * @member {string} responseJson
             * @memberof wasmhooks.v1.ToolCall
             * @instance
             */
            ToolCall.prototype.responseJson = "";

            /**
             * ToolCall isError.
             * @member {boolean} isError
             * @memberof wasmhooks.v1.ToolCall
             * @instance
             */
            ToolCall.prototype.isError = false;

            /**
             * Encodes the specified ToolCall message. Does not implicitly {@link wasmhooks.v1.ToolCall.verify|verify} messages.
             * @function encode
             * @memberof wasmhooks.v1.ToolCall
             * @static
             * @param {wasmhooks.v1.ToolCall.$Properties} message ToolCall message or plain object to encode
             * @param {$protobuf.Writer} [writer] Writer to encode to
             * @returns {$protobuf.Writer} Writer
             */
            ToolCall.encode = function (message, writer, _depth) {
                if (!writer)
                    writer = $Writer.create();
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (message.id != null && $Object.hasOwnProperty.call(message, "id") && message.id !== "")
                    writer.uint32(/* id 1, wireType 2 =*/10).string(message.id);
                if (message.name != null && $Object.hasOwnProperty.call(message, "name") && message.name !== "")
                    writer.uint32(/* id 2, wireType 2 =*/18).string(message.name);
                if (message.inputJson != null && $Object.hasOwnProperty.call(message, "inputJson") && message.inputJson !== "")
                    writer.uint32(/* id 3, wireType 2 =*/26).string(message.inputJson);
                if (message.responseJson != null && $Object.hasOwnProperty.call(message, "responseJson") && message.responseJson !== "")
                    writer.uint32(/* id 4, wireType 2 =*/34).string(message.responseJson);
                if (message.isError != null && $Object.hasOwnProperty.call(message, "isError") && message.isError !== false)
                    writer.uint32(/* id 5, wireType 0 =*/40).bool(message.isError);
                if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                    for (let i = 0; i < message.$unknowns.length; ++i)
                        writer.raw(message.$unknowns[i]);
                return writer;
            };

            /**
             * Decodes a ToolCall message from the specified reader or buffer.
             * @function decode
             * @memberof wasmhooks.v1.ToolCall
             * @static
             * @param {$protobuf.Reader|Uint8Array} reader Reader or buffer to decode from
             * @param {number} [length] Message length if known beforehand
             * @returns {wasmhooks.v1.ToolCall & wasmhooks.v1.ToolCall.$Shape} ToolCall
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            ToolCall.decode = function (reader, length, _end, _depth, _target) {
                if (!(reader instanceof $Reader))
                    reader = $Reader.create(reader);
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                let end, message, value;
                if (length === $undefined)
                    end = reader.len;
                else {
                    end = reader.pos + length;
                    if (end > reader.len)
                        throw $RangeError("index out of range");
                    length = reader.len;
                    reader.len = end;
                }
                message = _target || new $root.wasmhooks.v1.ToolCall();
                while (reader.pos < end) {
                    let start = reader.pos;
                    let tag = reader.tag();
                    if (tag === _end) {
                        _end = $undefined;
                        break;
                    }
                    let wireType = tag & 7;
                    switch (tag >>>= 3) {
                    case 1: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.stringVerify()).length)
                                message.id = value;
                            else
                                delete message.id;
                            continue;
                        }
                    case 2: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.stringVerify()).length)
                                message.name = value;
                            else
                                delete message.name;
                            continue;
                        }
                    case 3: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.stringVerify()).length)
                                message.inputJson = value;
                            else
                                delete message.inputJson;
                            continue;
                        }
                    case 4: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.stringVerify()).length)
                                message.responseJson = value;
                            else
                                delete message.responseJson;
                            continue;
                        }
                    case 5: {
                            if (wireType !== 0)
                                break;
                            if (value = reader.bool())
                                message.isError = value;
                            else
                                delete message.isError;
                            continue;
                        }
                    }
                    reader.skipType(wireType, _depth, tag);
                    if (!reader.discardUnknown) {
                        $util.makeProp(message, "$unknowns", false);
                        (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                    }
                }
                if (length !== $undefined) {
                    if (reader.pos !== end)
                        throw $RangeError("index out of range");
                    reader.len = length;
                }
                if (_end !== $undefined)
                    throw $Error("missing end group");
                return message;
            };

            /**
             * Gets the type url for ToolCall
             * @function getTypeUrl
             * @memberof wasmhooks.v1.ToolCall
             * @static
             * @param {string} [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
             * @returns {string} The type url
             */
            ToolCall.getTypeUrl = function(prefix) {
                if (prefix === $undefined)
                    prefix = "type.googleapis.com";
                return prefix + "/wasmhooks.v1.ToolCall";
            };

            return ToolCall;
        })();

        v1.ToolBatchPayload = (function() {

            /**
             * Properties of a ToolBatchPayload.
             * @typedef {Object} wasmhooks.v1.ToolBatchPayload.$Properties
             * @property {Array.<wasmhooks.v1.ToolCall.$Properties>|null} [calls] ToolBatchPayload calls
             * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
             */

            /**
             * Properties of a ToolBatchPayload.
             * @memberof wasmhooks.v1
             * @interface IToolBatchPayload
             * @augments wasmhooks.v1.ToolBatchPayload.$Properties
             * @deprecated Use wasmhooks.v1.ToolBatchPayload.$Properties instead.
             */

            /**
             * Shape of a ToolBatchPayload.
             * @typedef {wasmhooks.v1.ToolBatchPayload.$Properties} wasmhooks.v1.ToolBatchPayload.$Shape
             */

            /**
             * Constructs a new ToolBatchPayload.
             * @memberof wasmhooks.v1
             * @classdesc Represents a ToolBatchPayload.
             * @constructor
             * @param {wasmhooks.v1.ToolBatchPayload.$Properties=} [properties] Properties to set
             * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
             */
            const ToolBatchPayload = function (properties) {
                this.calls = [];
                if (properties)
                    for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                        if (properties[keys[i]] != null && keys[i] !== "__proto__")
                            this[keys[i]] = properties[keys[i]];
            };

            /**
             * ToolBatchPayload calls.
             * @member {Array.<wasmhooks.v1.ToolCall.$Properties>} calls
             * @memberof wasmhooks.v1.ToolBatchPayload
             * @instance
             */
            ToolBatchPayload.prototype.calls = $util.emptyArray;

            /**
             * Encodes the specified ToolBatchPayload message. Does not implicitly {@link wasmhooks.v1.ToolBatchPayload.verify|verify} messages.
             * @function encode
             * @memberof wasmhooks.v1.ToolBatchPayload
             * @static
             * @param {wasmhooks.v1.ToolBatchPayload.$Properties} message ToolBatchPayload message or plain object to encode
             * @param {$protobuf.Writer} [writer] Writer to encode to
             * @returns {$protobuf.Writer} Writer
             */
            ToolBatchPayload.encode = function (message, writer, _depth) {
                if (!writer)
                    writer = $Writer.create();
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (message.calls != null && message.calls.length)
                    for (let i = 0; i < message.calls.length; ++i)
                        $root.wasmhooks.v1.ToolCall.encode(message.calls[i], writer.uint32(/* id 1, wireType 2 =*/10).fork(), _depth + 1).ldelim();
                if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                    for (let i = 0; i < message.$unknowns.length; ++i)
                        writer.raw(message.$unknowns[i]);
                return writer;
            };

            /**
             * Decodes a ToolBatchPayload message from the specified reader or buffer.
             * @function decode
             * @memberof wasmhooks.v1.ToolBatchPayload
             * @static
             * @param {$protobuf.Reader|Uint8Array} reader Reader or buffer to decode from
             * @param {number} [length] Message length if known beforehand
             * @returns {wasmhooks.v1.ToolBatchPayload & wasmhooks.v1.ToolBatchPayload.$Shape} ToolBatchPayload
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            ToolBatchPayload.decode = function (reader, length, _end, _depth, _target) {
                if (!(reader instanceof $Reader))
                    reader = $Reader.create(reader);
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                let end, message;
                if (length === $undefined)
                    end = reader.len;
                else {
                    end = reader.pos + length;
                    if (end > reader.len)
                        throw $RangeError("index out of range");
                    length = reader.len;
                    reader.len = end;
                }
                message = _target || new $root.wasmhooks.v1.ToolBatchPayload();
                while (reader.pos < end) {
                    let start = reader.pos;
                    let tag = reader.tag();
                    if (tag === _end) {
                        _end = $undefined;
                        break;
                    }
                    let wireType = tag & 7;
                    switch (tag >>>= 3) {
                    case 1: {
                            if (wireType !== 2)
                                break;
                            if (!(message.calls && message.calls.length))
                                message.calls = [];
                            message.calls.push($root.wasmhooks.v1.ToolCall.decode(reader, reader.size(), $undefined, _depth + 1));
                            continue;
                        }
                    }
                    reader.skipType(wireType, _depth, tag);
                    if (!reader.discardUnknown) {
                        $util.makeProp(message, "$unknowns", false);
                        (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                    }
                }
                if (length !== $undefined) {
                    if (reader.pos !== end)
                        throw $RangeError("index out of range");
                    reader.len = length;
                }
                if (_end !== $undefined)
                    throw $Error("missing end group");
                return message;
            };

            /**
             * Gets the type url for ToolBatchPayload
             * @function getTypeUrl
             * @memberof wasmhooks.v1.ToolBatchPayload
             * @static
             * @param {string} [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
             * @returns {string} The type url
             */
            ToolBatchPayload.getTypeUrl = function(prefix) {
                if (prefix === $undefined)
                    prefix = "type.googleapis.com";
                return prefix + "/wasmhooks.v1.ToolBatchPayload";
            };

            return ToolBatchPayload;
        })();

        v1.StopPayload = (function() {

            /**
             * Properties of a StopPayload.
             * @typedef {Object} wasmhooks.v1.StopPayload.$Properties
             * @property {boolean|null} [stopHookActive] StopPayload stopHookActive
             * @property {string|null} [lastAssistantMessage] StopPayload lastAssistantMessage
             * @property {string|null} [error] StopPayload error
             * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
             */

            /**
             * Properties of a StopPayload.
             * @memberof wasmhooks.v1
             * @interface IStopPayload
             * @augments wasmhooks.v1.StopPayload.$Properties
             * @deprecated Use wasmhooks.v1.StopPayload.$Properties instead.
             */

            /**
             * Shape of a StopPayload.
             * @typedef {wasmhooks.v1.StopPayload.$Properties} wasmhooks.v1.StopPayload.$Shape
             */

            /**
             * Constructs a new StopPayload.
             * @memberof wasmhooks.v1
             * @classdesc Represents a StopPayload.
             * @constructor
             * @param {wasmhooks.v1.StopPayload.$Properties=} [properties] Properties to set
             * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
             */
            const StopPayload = function (properties) {
                if (properties)
                    for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                        if (properties[keys[i]] != null && keys[i] !== "__proto__")
                            this[keys[i]] = properties[keys[i]];
            };

            /**
             * StopPayload stopHookActive.
             * @member {boolean} stopHookActive
             * @memberof wasmhooks.v1.StopPayload
             * @instance
             */
            StopPayload.prototype.stopHookActive = false;

            /**
             * StopPayload lastAssistantMessage.
             * @member {string} lastAssistantMessage
             * @memberof wasmhooks.v1.StopPayload
             * @instance
             */
            StopPayload.prototype.lastAssistantMessage = "";

            /**
             * StopPayload error.
             * @member {string} error
             * @memberof wasmhooks.v1.StopPayload
             * @instance
             */
            StopPayload.prototype.error = "";

            /**
             * Encodes the specified StopPayload message. Does not implicitly {@link wasmhooks.v1.StopPayload.verify|verify} messages.
             * @function encode
             * @memberof wasmhooks.v1.StopPayload
             * @static
             * @param {wasmhooks.v1.StopPayload.$Properties} message StopPayload message or plain object to encode
             * @param {$protobuf.Writer} [writer] Writer to encode to
             * @returns {$protobuf.Writer} Writer
             */
            StopPayload.encode = function (message, writer, _depth) {
                if (!writer)
                    writer = $Writer.create();
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (message.stopHookActive != null && $Object.hasOwnProperty.call(message, "stopHookActive") && message.stopHookActive !== false)
                    writer.uint32(/* id 1, wireType 0 =*/8).bool(message.stopHookActive);
                if (message.lastAssistantMessage != null && $Object.hasOwnProperty.call(message, "lastAssistantMessage") && message.lastAssistantMessage !== "")
                    writer.uint32(/* id 2, wireType 2 =*/18).string(message.lastAssistantMessage);
                if (message.error != null && $Object.hasOwnProperty.call(message, "error") && message.error !== "")
                    writer.uint32(/* id 3, wireType 2 =*/26).string(message.error);
                if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                    for (let i = 0; i < message.$unknowns.length; ++i)
                        writer.raw(message.$unknowns[i]);
                return writer;
            };

            /**
             * Decodes a StopPayload message from the specified reader or buffer.
             * @function decode
             * @memberof wasmhooks.v1.StopPayload
             * @static
             * @param {$protobuf.Reader|Uint8Array} reader Reader or buffer to decode from
             * @param {number} [length] Message length if known beforehand
             * @returns {wasmhooks.v1.StopPayload & wasmhooks.v1.StopPayload.$Shape} StopPayload
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            StopPayload.decode = function (reader, length, _end, _depth, _target) {
                if (!(reader instanceof $Reader))
                    reader = $Reader.create(reader);
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                let end, message, value;
                if (length === $undefined)
                    end = reader.len;
                else {
                    end = reader.pos + length;
                    if (end > reader.len)
                        throw $RangeError("index out of range");
                    length = reader.len;
                    reader.len = end;
                }
                message = _target || new $root.wasmhooks.v1.StopPayload();
                while (reader.pos < end) {
                    let start = reader.pos;
                    let tag = reader.tag();
                    if (tag === _end) {
                        _end = $undefined;
                        break;
                    }
                    let wireType = tag & 7;
                    switch (tag >>>= 3) {
                    case 1: {
                            if (wireType !== 0)
                                break;
                            if (value = reader.bool())
                                message.stopHookActive = value;
                            else
                                delete message.stopHookActive;
                            continue;
                        }
                    case 2: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.stringVerify()).length)
                                message.lastAssistantMessage = value;
                            else
                                delete message.lastAssistantMessage;
                            continue;
                        }
                    case 3: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.stringVerify()).length)
                                message.error = value;
                            else
                                delete message.error;
                            continue;
                        }
                    }
                    reader.skipType(wireType, _depth, tag);
                    if (!reader.discardUnknown) {
                        $util.makeProp(message, "$unknowns", false);
                        (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                    }
                }
                if (length !== $undefined) {
                    if (reader.pos !== end)
                        throw $RangeError("index out of range");
                    reader.len = length;
                }
                if (_end !== $undefined)
                    throw $Error("missing end group");
                return message;
            };

            /**
             * Gets the type url for StopPayload
             * @function getTypeUrl
             * @memberof wasmhooks.v1.StopPayload
             * @static
             * @param {string} [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
             * @returns {string} The type url
             */
            StopPayload.getTypeUrl = function(prefix) {
                if (prefix === $undefined)
                    prefix = "type.googleapis.com";
                return prefix + "/wasmhooks.v1.StopPayload";
            };

            return StopPayload;
        })();

        v1.SubagentPayload = (function() {

            /**
             * Properties of a SubagentPayload.
             * @typedef {Object} wasmhooks.v1.SubagentPayload.$Properties
             * @property {string|null} [agentId] SubagentPayload agentId
             * @property {string|null} [agentType] SubagentPayload agentType
             * @property {string|null} [prompt] SubagentPayload prompt
             * @property {string|null} [result] SubagentPayload result
             * @property {boolean|null} [stopHookActive] SubagentPayload stopHookActive
             * @property {string|null} [lastAssistantMessage] SubagentPayload lastAssistantMessage
             * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
             */

            /**
             * Properties of a SubagentPayload.
             * @memberof wasmhooks.v1
             * @interface ISubagentPayload
             * @augments wasmhooks.v1.SubagentPayload.$Properties
             * @deprecated Use wasmhooks.v1.SubagentPayload.$Properties instead.
             */

            /**
             * Shape of a SubagentPayload.
             * @typedef {wasmhooks.v1.SubagentPayload.$Properties} wasmhooks.v1.SubagentPayload.$Shape
             */

            /**
             * Constructs a new SubagentPayload.
             * @memberof wasmhooks.v1
             * @classdesc Represents a SubagentPayload.
             * @constructor
             * @param {wasmhooks.v1.SubagentPayload.$Properties=} [properties] Properties to set
             * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
             */
            const SubagentPayload = function (properties) {
                if (properties)
                    for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                        if (properties[keys[i]] != null && keys[i] !== "__proto__")
                            this[keys[i]] = properties[keys[i]];
            };

            /**
             * SubagentPayload agentId.
             * @member {string} agentId
             * @memberof wasmhooks.v1.SubagentPayload
             * @instance
             */
            SubagentPayload.prototype.agentId = "";

            /**
             * SubagentPayload agentType.
             * @member {string} agentType
             * @memberof wasmhooks.v1.SubagentPayload
             * @instance
             */
            SubagentPayload.prototype.agentType = "";

            /**
             * SubagentPayload prompt.
             * @member {string} prompt
             * @memberof wasmhooks.v1.SubagentPayload
             * @instance
             */
            SubagentPayload.prototype.prompt = "";

            /**
             * SubagentPayload result.
             * @member {string} result
             * @memberof wasmhooks.v1.SubagentPayload
             * @instance
             */
            SubagentPayload.prototype.result = "";

            /**
             * SubagentPayload stopHookActive.
             * @member {boolean} stopHookActive
             * @memberof wasmhooks.v1.SubagentPayload
             * @instance
             */
            SubagentPayload.prototype.stopHookActive = false;

            /**
             * SubagentPayload lastAssistantMessage.
             * @member {string} lastAssistantMessage
             * @memberof wasmhooks.v1.SubagentPayload
             * @instance
             */
            SubagentPayload.prototype.lastAssistantMessage = "";

            /**
             * Encodes the specified SubagentPayload message. Does not implicitly {@link wasmhooks.v1.SubagentPayload.verify|verify} messages.
             * @function encode
             * @memberof wasmhooks.v1.SubagentPayload
             * @static
             * @param {wasmhooks.v1.SubagentPayload.$Properties} message SubagentPayload message or plain object to encode
             * @param {$protobuf.Writer} [writer] Writer to encode to
             * @returns {$protobuf.Writer} Writer
             */
            SubagentPayload.encode = function (message, writer, _depth) {
                if (!writer)
                    writer = $Writer.create();
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (message.agentId != null && $Object.hasOwnProperty.call(message, "agentId") && message.agentId !== "")
                    writer.uint32(/* id 1, wireType 2 =*/10).string(message.agentId);
                if (message.agentType != null && $Object.hasOwnProperty.call(message, "agentType") && message.agentType !== "")
                    writer.uint32(/* id 2, wireType 2 =*/18).string(message.agentType);
                if (message.prompt != null && $Object.hasOwnProperty.call(message, "prompt") && message.prompt !== "")
                    writer.uint32(/* id 3, wireType 2 =*/26).string(message.prompt);
                if (message.result != null && $Object.hasOwnProperty.call(message, "result") && message.result !== "")
                    writer.uint32(/* id 4, wireType 2 =*/34).string(message.result);
                if (message.stopHookActive != null && $Object.hasOwnProperty.call(message, "stopHookActive") && message.stopHookActive !== false)
                    writer.uint32(/* id 5, wireType 0 =*/40).bool(message.stopHookActive);
                if (message.lastAssistantMessage != null && $Object.hasOwnProperty.call(message, "lastAssistantMessage") && message.lastAssistantMessage !== "")
                    writer.uint32(/* id 6, wireType 2 =*/50).string(message.lastAssistantMessage);
                if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                    for (let i = 0; i < message.$unknowns.length; ++i)
                        writer.raw(message.$unknowns[i]);
                return writer;
            };

            /**
             * Decodes a SubagentPayload message from the specified reader or buffer.
             * @function decode
             * @memberof wasmhooks.v1.SubagentPayload
             * @static
             * @param {$protobuf.Reader|Uint8Array} reader Reader or buffer to decode from
             * @param {number} [length] Message length if known beforehand
             * @returns {wasmhooks.v1.SubagentPayload & wasmhooks.v1.SubagentPayload.$Shape} SubagentPayload
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            SubagentPayload.decode = function (reader, length, _end, _depth, _target) {
                if (!(reader instanceof $Reader))
                    reader = $Reader.create(reader);
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                let end, message, value;
                if (length === $undefined)
                    end = reader.len;
                else {
                    end = reader.pos + length;
                    if (end > reader.len)
                        throw $RangeError("index out of range");
                    length = reader.len;
                    reader.len = end;
                }
                message = _target || new $root.wasmhooks.v1.SubagentPayload();
                while (reader.pos < end) {
                    let start = reader.pos;
                    let tag = reader.tag();
                    if (tag === _end) {
                        _end = $undefined;
                        break;
                    }
                    let wireType = tag & 7;
                    switch (tag >>>= 3) {
                    case 1: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.stringVerify()).length)
                                message.agentId = value;
                            else
                                delete message.agentId;
                            continue;
                        }
                    case 2: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.stringVerify()).length)
                                message.agentType = value;
                            else
                                delete message.agentType;
                            continue;
                        }
                    case 3: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.stringVerify()).length)
                                message.prompt = value;
                            else
                                delete message.prompt;
                            continue;
                        }
                    case 4: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.stringVerify()).length)
                                message.result = value;
                            else
                                delete message.result;
                            continue;
                        }
                    case 5: {
                            if (wireType !== 0)
                                break;
                            if (value = reader.bool())
                                message.stopHookActive = value;
                            else
                                delete message.stopHookActive;
                            continue;
                        }
                    case 6: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.stringVerify()).length)
                                message.lastAssistantMessage = value;
                            else
                                delete message.lastAssistantMessage;
                            continue;
                        }
                    }
                    reader.skipType(wireType, _depth, tag);
                    if (!reader.discardUnknown) {
                        $util.makeProp(message, "$unknowns", false);
                        (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                    }
                }
                if (length !== $undefined) {
                    if (reader.pos !== end)
                        throw $RangeError("index out of range");
                    reader.len = length;
                }
                if (_end !== $undefined)
                    throw $Error("missing end group");
                return message;
            };

            /**
             * Gets the type url for SubagentPayload
             * @function getTypeUrl
             * @memberof wasmhooks.v1.SubagentPayload
             * @static
             * @param {string} [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
             * @returns {string} The type url
             */
            SubagentPayload.getTypeUrl = function(prefix) {
                if (prefix === $undefined)
                    prefix = "type.googleapis.com";
                return prefix + "/wasmhooks.v1.SubagentPayload";
            };

            return SubagentPayload;
        })();

        v1.CompactPayload = (function() {

            /**
             * Properties of a CompactPayload.
             * @typedef {Object} wasmhooks.v1.CompactPayload.$Properties
             * @property {string|null} [trigger] CompactPayload trigger
             * @property {number|null} [tokensBefore] CompactPayload tokensBefore
             * @property {number|null} [tokensAfter] CompactPayload tokensAfter
             * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
             */

            /**
             * Properties of a CompactPayload.
             * @memberof wasmhooks.v1
             * @interface ICompactPayload
             * @augments wasmhooks.v1.CompactPayload.$Properties
             * @deprecated Use wasmhooks.v1.CompactPayload.$Properties instead.
             */

            /**
             * Shape of a CompactPayload.
             * @typedef {wasmhooks.v1.CompactPayload.$Properties} wasmhooks.v1.CompactPayload.$Shape
             */

            /**
             * Constructs a new CompactPayload.
             * @memberof wasmhooks.v1
             * @classdesc Represents a CompactPayload.
             * @constructor
             * @param {wasmhooks.v1.CompactPayload.$Properties=} [properties] Properties to set
             * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
             */
            const CompactPayload = function (properties) {
                if (properties)
                    for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                        if (properties[keys[i]] != null && keys[i] !== "__proto__")
                            this[keys[i]] = properties[keys[i]];
            };

            /**
             * CompactPayload trigger.
             * @member {string} trigger
             * @memberof wasmhooks.v1.CompactPayload
             * @instance
             */
            CompactPayload.prototype.trigger = "";

            /**
             * CompactPayload tokensBefore.
             * @member {number} tokensBefore
             * @memberof wasmhooks.v1.CompactPayload
             * @instance
             */
            CompactPayload.prototype.tokensBefore = 0;

            /**
             * CompactPayload tokensAfter.
             * @member {number} tokensAfter
             * @memberof wasmhooks.v1.CompactPayload
             * @instance
             */
            CompactPayload.prototype.tokensAfter = 0;

            /**
             * Encodes the specified CompactPayload message. Does not implicitly {@link wasmhooks.v1.CompactPayload.verify|verify} messages.
             * @function encode
             * @memberof wasmhooks.v1.CompactPayload
             * @static
             * @param {wasmhooks.v1.CompactPayload.$Properties} message CompactPayload message or plain object to encode
             * @param {$protobuf.Writer} [writer] Writer to encode to
             * @returns {$protobuf.Writer} Writer
             */
            CompactPayload.encode = function (message, writer, _depth) {
                if (!writer)
                    writer = $Writer.create();
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (message.trigger != null && $Object.hasOwnProperty.call(message, "trigger") && message.trigger !== "")
                    writer.uint32(/* id 1, wireType 2 =*/10).string(message.trigger);
                if (message.tokensBefore != null && $Object.hasOwnProperty.call(message, "tokensBefore") && message.tokensBefore !== 0)
                    writer.uint32(/* id 2, wireType 0 =*/16).uint32(message.tokensBefore);
                if (message.tokensAfter != null && $Object.hasOwnProperty.call(message, "tokensAfter") && message.tokensAfter !== 0)
                    writer.uint32(/* id 3, wireType 0 =*/24).uint32(message.tokensAfter);
                if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                    for (let i = 0; i < message.$unknowns.length; ++i)
                        writer.raw(message.$unknowns[i]);
                return writer;
            };

            /**
             * Decodes a CompactPayload message from the specified reader or buffer.
             * @function decode
             * @memberof wasmhooks.v1.CompactPayload
             * @static
             * @param {$protobuf.Reader|Uint8Array} reader Reader or buffer to decode from
             * @param {number} [length] Message length if known beforehand
             * @returns {wasmhooks.v1.CompactPayload & wasmhooks.v1.CompactPayload.$Shape} CompactPayload
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            CompactPayload.decode = function (reader, length, _end, _depth, _target) {
                if (!(reader instanceof $Reader))
                    reader = $Reader.create(reader);
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                let end, message, value;
                if (length === $undefined)
                    end = reader.len;
                else {
                    end = reader.pos + length;
                    if (end > reader.len)
                        throw $RangeError("index out of range");
                    length = reader.len;
                    reader.len = end;
                }
                message = _target || new $root.wasmhooks.v1.CompactPayload();
                while (reader.pos < end) {
                    let start = reader.pos;
                    let tag = reader.tag();
                    if (tag === _end) {
                        _end = $undefined;
                        break;
                    }
                    let wireType = tag & 7;
                    switch (tag >>>= 3) {
                    case 1: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.stringVerify()).length)
                                message.trigger = value;
                            else
                                delete message.trigger;
                            continue;
                        }
                    case 2: {
                            if (wireType !== 0)
                                break;
                            if (value = reader.uint32())
                                message.tokensBefore = value;
                            else
                                delete message.tokensBefore;
                            continue;
                        }
                    case 3: {
                            if (wireType !== 0)
                                break;
                            if (value = reader.uint32())
                                message.tokensAfter = value;
                            else
                                delete message.tokensAfter;
                            continue;
                        }
                    }
                    reader.skipType(wireType, _depth, tag);
                    if (!reader.discardUnknown) {
                        $util.makeProp(message, "$unknowns", false);
                        (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                    }
                }
                if (length !== $undefined) {
                    if (reader.pos !== end)
                        throw $RangeError("index out of range");
                    reader.len = length;
                }
                if (_end !== $undefined)
                    throw $Error("missing end group");
                return message;
            };

            /**
             * Gets the type url for CompactPayload
             * @function getTypeUrl
             * @memberof wasmhooks.v1.CompactPayload
             * @static
             * @param {string} [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
             * @returns {string} The type url
             */
            CompactPayload.getTypeUrl = function(prefix) {
                if (prefix === $undefined)
                    prefix = "type.googleapis.com";
                return prefix + "/wasmhooks.v1.CompactPayload";
            };

            return CompactPayload;
        })();

        v1.NotificationPayload = (function() {

            /**
             * Properties of a NotificationPayload.
             * @typedef {Object} wasmhooks.v1.NotificationPayload.$Properties
             * @property {string|null} [message] NotificationPayload message
             * @property {string|null} [level] NotificationPayload level
             * @property {string|null} [notificationType] NotificationPayload notificationType
             * @property {string|null} [title] NotificationPayload title
             * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
             */

            /**
             * Properties of a NotificationPayload.
             * @memberof wasmhooks.v1
             * @interface INotificationPayload
             * @augments wasmhooks.v1.NotificationPayload.$Properties
             * @deprecated Use wasmhooks.v1.NotificationPayload.$Properties instead.
             */

            /**
             * Shape of a NotificationPayload.
             * @typedef {wasmhooks.v1.NotificationPayload.$Properties} wasmhooks.v1.NotificationPayload.$Shape
             */

            /**
             * Constructs a new NotificationPayload.
             * @memberof wasmhooks.v1
             * @classdesc Represents a NotificationPayload.
             * @constructor
             * @param {wasmhooks.v1.NotificationPayload.$Properties=} [properties] Properties to set
             * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
             */
            const NotificationPayload = function (properties) {
                if (properties)
                    for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                        if (properties[keys[i]] != null && keys[i] !== "__proto__")
                            this[keys[i]] = properties[keys[i]];
            };

            /**
             * NotificationPayload message.
             * @member {string} message
             * @memberof wasmhooks.v1.NotificationPayload
             * @instance
             */
            NotificationPayload.prototype.message = "";

            /**
             * NotificationPayload level.
             * @member {string} level
             * @memberof wasmhooks.v1.NotificationPayload
             * @instance
             */
            NotificationPayload.prototype.level = "";

            /**
             * NotificationPayload notificationType.
             * @member {string} notificationType
             * @memberof wasmhooks.v1.NotificationPayload
             * @instance
             */
            NotificationPayload.prototype.notificationType = "";

            /**
             * NotificationPayload title.
             * @member {string} title
             * @memberof wasmhooks.v1.NotificationPayload
             * @instance
             */
            NotificationPayload.prototype.title = "";

            /**
             * Encodes the specified NotificationPayload message. Does not implicitly {@link wasmhooks.v1.NotificationPayload.verify|verify} messages.
             * @function encode
             * @memberof wasmhooks.v1.NotificationPayload
             * @static
             * @param {wasmhooks.v1.NotificationPayload.$Properties} message NotificationPayload message or plain object to encode
             * @param {$protobuf.Writer} [writer] Writer to encode to
             * @returns {$protobuf.Writer} Writer
             */
            NotificationPayload.encode = function (message, writer, _depth) {
                if (!writer)
                    writer = $Writer.create();
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (message.message != null && $Object.hasOwnProperty.call(message, "message") && message.message !== "")
                    writer.uint32(/* id 1, wireType 2 =*/10).string(message.message);
                if (message.level != null && $Object.hasOwnProperty.call(message, "level") && message.level !== "")
                    writer.uint32(/* id 2, wireType 2 =*/18).string(message.level);
                if (message.notificationType != null && $Object.hasOwnProperty.call(message, "notificationType") && message.notificationType !== "")
                    writer.uint32(/* id 3, wireType 2 =*/26).string(message.notificationType);
                if (message.title != null && $Object.hasOwnProperty.call(message, "title") && message.title !== "")
                    writer.uint32(/* id 4, wireType 2 =*/34).string(message.title);
                if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                    for (let i = 0; i < message.$unknowns.length; ++i)
                        writer.raw(message.$unknowns[i]);
                return writer;
            };

            /**
             * Decodes a NotificationPayload message from the specified reader or buffer.
             * @function decode
             * @memberof wasmhooks.v1.NotificationPayload
             * @static
             * @param {$protobuf.Reader|Uint8Array} reader Reader or buffer to decode from
             * @param {number} [length] Message length if known beforehand
             * @returns {wasmhooks.v1.NotificationPayload & wasmhooks.v1.NotificationPayload.$Shape} NotificationPayload
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            NotificationPayload.decode = function (reader, length, _end, _depth, _target) {
                if (!(reader instanceof $Reader))
                    reader = $Reader.create(reader);
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                let end, message, value;
                if (length === $undefined)
                    end = reader.len;
                else {
                    end = reader.pos + length;
                    if (end > reader.len)
                        throw $RangeError("index out of range");
                    length = reader.len;
                    reader.len = end;
                }
                message = _target || new $root.wasmhooks.v1.NotificationPayload();
                while (reader.pos < end) {
                    let start = reader.pos;
                    let tag = reader.tag();
                    if (tag === _end) {
                        _end = $undefined;
                        break;
                    }
                    let wireType = tag & 7;
                    switch (tag >>>= 3) {
                    case 1: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.stringVerify()).length)
                                message.message = value;
                            else
                                delete message.message;
                            continue;
                        }
                    case 2: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.stringVerify()).length)
                                message.level = value;
                            else
                                delete message.level;
                            continue;
                        }
                    case 3: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.stringVerify()).length)
                                message.notificationType = value;
                            else
                                delete message.notificationType;
                            continue;
                        }
                    case 4: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.stringVerify()).length)
                                message.title = value;
                            else
                                delete message.title;
                            continue;
                        }
                    }
                    reader.skipType(wireType, _depth, tag);
                    if (!reader.discardUnknown) {
                        $util.makeProp(message, "$unknowns", false);
                        (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                    }
                }
                if (length !== $undefined) {
                    if (reader.pos !== end)
                        throw $RangeError("index out of range");
                    reader.len = length;
                }
                if (_end !== $undefined)
                    throw $Error("missing end group");
                return message;
            };

            /**
             * Gets the type url for NotificationPayload
             * @function getTypeUrl
             * @memberof wasmhooks.v1.NotificationPayload
             * @static
             * @param {string} [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
             * @returns {string} The type url
             */
            NotificationPayload.getTypeUrl = function(prefix) {
                if (prefix === $undefined)
                    prefix = "type.googleapis.com";
                return prefix + "/wasmhooks.v1.NotificationPayload";
            };

            return NotificationPayload;
        })();

        v1.ErrorPayload = (function() {

            /**
             * Properties of an ErrorPayload.
             * @typedef {Object} wasmhooks.v1.ErrorPayload.$Properties
             * @property {string|null} [code] ErrorPayload code
             * @property {string|null} [message] ErrorPayload message
             * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
             */

            /**
             * Properties of an ErrorPayload.
             * @memberof wasmhooks.v1
             * @interface IErrorPayload
             * @augments wasmhooks.v1.ErrorPayload.$Properties
             * @deprecated Use wasmhooks.v1.ErrorPayload.$Properties instead.
             */

            /**
             * Shape of an ErrorPayload.
             * @typedef {wasmhooks.v1.ErrorPayload.$Properties} wasmhooks.v1.ErrorPayload.$Shape
             */

            /**
             * Constructs a new ErrorPayload.
             * @memberof wasmhooks.v1
             * @classdesc Represents an ErrorPayload.
             * @constructor
             * @param {wasmhooks.v1.ErrorPayload.$Properties=} [properties] Properties to set
             * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
             */
            const ErrorPayload = function (properties) {
                if (properties)
                    for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                        if (properties[keys[i]] != null && keys[i] !== "__proto__")
                            this[keys[i]] = properties[keys[i]];
            };

            /**
             * ErrorPayload code.
             * @member {string} code
             * @memberof wasmhooks.v1.ErrorPayload
             * @instance
             */
            ErrorPayload.prototype.code = "";

            /**
             * ErrorPayload message.
             * @member {string} message
             * @memberof wasmhooks.v1.ErrorPayload
             * @instance
             */
            ErrorPayload.prototype.message = "";

            /**
             * Encodes the specified ErrorPayload message. Does not implicitly {@link wasmhooks.v1.ErrorPayload.verify|verify} messages.
             * @function encode
             * @memberof wasmhooks.v1.ErrorPayload
             * @static
             * @param {wasmhooks.v1.ErrorPayload.$Properties} message ErrorPayload message or plain object to encode
             * @param {$protobuf.Writer} [writer] Writer to encode to
             * @returns {$protobuf.Writer} Writer
             */
            ErrorPayload.encode = function (message, writer, _depth) {
                if (!writer)
                    writer = $Writer.create();
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (message.code != null && $Object.hasOwnProperty.call(message, "code") && message.code !== "")
                    writer.uint32(/* id 1, wireType 2 =*/10).string(message.code);
                if (message.message != null && $Object.hasOwnProperty.call(message, "message") && message.message !== "")
                    writer.uint32(/* id 2, wireType 2 =*/18).string(message.message);
                if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                    for (let i = 0; i < message.$unknowns.length; ++i)
                        writer.raw(message.$unknowns[i]);
                return writer;
            };

            /**
             * Decodes an ErrorPayload message from the specified reader or buffer.
             * @function decode
             * @memberof wasmhooks.v1.ErrorPayload
             * @static
             * @param {$protobuf.Reader|Uint8Array} reader Reader or buffer to decode from
             * @param {number} [length] Message length if known beforehand
             * @returns {wasmhooks.v1.ErrorPayload & wasmhooks.v1.ErrorPayload.$Shape} ErrorPayload
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            ErrorPayload.decode = function (reader, length, _end, _depth, _target) {
                if (!(reader instanceof $Reader))
                    reader = $Reader.create(reader);
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                let end, message, value;
                if (length === $undefined)
                    end = reader.len;
                else {
                    end = reader.pos + length;
                    if (end > reader.len)
                        throw $RangeError("index out of range");
                    length = reader.len;
                    reader.len = end;
                }
                message = _target || new $root.wasmhooks.v1.ErrorPayload();
                while (reader.pos < end) {
                    let start = reader.pos;
                    let tag = reader.tag();
                    if (tag === _end) {
                        _end = $undefined;
                        break;
                    }
                    let wireType = tag & 7;
                    switch (tag >>>= 3) {
                    case 1: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.stringVerify()).length)
                                message.code = value;
                            else
                                delete message.code;
                            continue;
                        }
                    case 2: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.stringVerify()).length)
                                message.message = value;
                            else
                                delete message.message;
                            continue;
                        }
                    }
                    reader.skipType(wireType, _depth, tag);
                    if (!reader.discardUnknown) {
                        $util.makeProp(message, "$unknowns", false);
                        (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                    }
                }
                if (length !== $undefined) {
                    if (reader.pos !== end)
                        throw $RangeError("index out of range");
                    reader.len = length;
                }
                if (_end !== $undefined)
                    throw $Error("missing end group");
                return message;
            };

            /**
             * Gets the type url for ErrorPayload
             * @function getTypeUrl
             * @memberof wasmhooks.v1.ErrorPayload
             * @static
             * @param {string} [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
             * @returns {string} The type url
             */
            ErrorPayload.getTypeUrl = function(prefix) {
                if (prefix === $undefined)
                    prefix = "type.googleapis.com";
                return prefix + "/wasmhooks.v1.ErrorPayload";
            };

            return ErrorPayload;
        })();

        v1.HookRequest = (function() {

            /**
             * Properties of a HookRequest.
             * @typedef {Object} wasmhooks.v1.HookRequest.$Properties
             * @property {wasmhooks.v1.HookEvent|null} [event] HookRequest event
             * @property {wasmhooks.v1.HookContext.$Properties|null} [context] HookRequest context
             * @property {number|null} [bindingIndex] HookRequest bindingIndex
             * @property {wasmhooks.v1.SessionPayload.$Properties|null} [session] HookRequest session
             * @property {wasmhooks.v1.PromptPayload.$Properties|null} [prompt] HookRequest prompt
             * @property {wasmhooks.v1.ToolUsePayload.$Properties|null} [toolUse] HookRequest toolUse
             * @property {wasmhooks.v1.ToolResultPayload.$Properties|null} [toolResult] HookRequest toolResult
             * @property {wasmhooks.v1.ToolBatchPayload.$Properties|null} [toolBatch] HookRequest toolBatch
             * @property {wasmhooks.v1.StopPayload.$Properties|null} [stop] HookRequest stop
             * @property {wasmhooks.v1.SubagentPayload.$Properties|null} [subagent] HookRequest subagent
             * @property {wasmhooks.v1.CompactPayload.$Properties|null} [compact] HookRequest compact
             * @property {wasmhooks.v1.NotificationPayload.$Properties|null} [notification] HookRequest notification
             * @property {wasmhooks.v1.ErrorPayload.$Properties|null} [error] HookRequest error
             * @property {"session"|"prompt"|"toolUse"|"toolResult"|"toolBatch"|"stop"|"subagent"|"compact"|"notification"|"error"} [payload] HookRequest payload
             * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
             */

            /**
             * Properties of a HookRequest.
             * @memberof wasmhooks.v1
             * @interface IHookRequest
             * @augments wasmhooks.v1.HookRequest.$Properties
             * @deprecated Use wasmhooks.v1.HookRequest.$Properties instead.
             */

            /**
             * Narrowed shape of a HookRequest.
             * @typedef {{
             *   event?: wasmhooks.v1.HookEvent|null;
             *   context?: wasmhooks.v1.HookContext.$Shape|null;
             *   bindingIndex?: number|null;
             *   session?: wasmhooks.v1.SessionPayload.$Shape|null;
             *   prompt?: wasmhooks.v1.PromptPayload.$Shape|null;
             *   toolUse?: wasmhooks.v1.ToolUsePayload.$Shape|null;
             *   toolResult?: wasmhooks.v1.ToolResultPayload.$Shape|null;
             *   toolBatch?: wasmhooks.v1.ToolBatchPayload.$Shape|null;
             *   stop?: wasmhooks.v1.StopPayload.$Shape|null;
             *   subagent?: wasmhooks.v1.SubagentPayload.$Shape|null;
             *   compact?: wasmhooks.v1.CompactPayload.$Shape|null;
             *   notification?: wasmhooks.v1.NotificationPayload.$Shape|null;
             *   error?: wasmhooks.v1.ErrorPayload.$Shape|null;
             *   $unknowns?: Array.<Uint8Array>;
             * } & (
             *   ({ payload?: undefined; session?: null; prompt?: null; toolUse?: null; toolResult?: null; toolBatch?: null; stop?: null; subagent?: null; compact?: null; notification?: null; error?: null }|{ payload?: "session"; session: wasmhooks.v1.SessionPayload.$Shape; prompt?: null; toolUse?: null; toolResult?: null; toolBatch?: null; stop?: null; subagent?: null; compact?: null; notification?: null; error?: null }|{ payload?: "prompt"; session?: null; prompt: wasmhooks.v1.PromptPayload.$Shape; toolUse?: null; toolResult?: null; toolBatch?: null; stop?: null; subagent?: null; compact?: null; notification?: null; error?: null }|{ payload?: "toolUse"; session?: null; prompt?: null; toolUse: wasmhooks.v1.ToolUsePayload.$Shape; toolResult?: null; toolBatch?: null; stop?: null; subagent?: null; compact?: null; notification?: null; error?: null }|{ payload?: "toolResult"; session?: null; prompt?: null; toolUse?: null; toolResult: wasmhooks.v1.ToolResultPayload.$Shape; toolBatch?: null; stop?: null; subagent?: null; compact?: null; notification?: null; error?: null }|{ payload?: "toolBatch"; session?: null; prompt?: null; toolUse?: null; toolResult?: null; toolBatch: wasmhooks.v1.ToolBatchPayload.$Shape; stop?: null; subagent?: null; compact?: null; notification?: null; error?: null }|{ payload?: "stop"; session?: null; prompt?: null; toolUse?: null; toolResult?: null; toolBatch?: null; stop: wasmhooks.v1.StopPayload.$Shape; subagent?: null; compact?: null; notification?: null; error?: null }|{ payload?: "subagent"; session?: null; prompt?: null; toolUse?: null; toolResult?: null; toolBatch?: null; stop?: null; subagent: wasmhooks.v1.SubagentPayload.$Shape; compact?: null; notification?: null; error?: null }|{ payload?: "compact"; session?: null; prompt?: null; toolUse?: null; toolResult?: null; toolBatch?: null; stop?: null; subagent?: null; compact: wasmhooks.v1.CompactPayload.$Shape; notification?: null; error?: null }|{ payload?: "notification"; session?: null; prompt?: null; toolUse?: null; toolResult?: null; toolBatch?: null; stop?: null; subagent?: null; compact?: null; notification: wasmhooks.v1.NotificationPayload.$Shape; error?: null }|{ payload?: "error"; session?: null; prompt?: null; toolUse?: null; toolResult?: null; toolBatch?: null; stop?: null; subagent?: null; compact?: null; notification?: null; error: wasmhooks.v1.ErrorPayload.$Shape })
             * )} wasmhooks.v1.HookRequest.$Shape
             */

            /**
             * Constructs a new HookRequest.
             * @memberof wasmhooks.v1
             * @classdesc Represents a HookRequest.
             * @constructor
             * @param {wasmhooks.v1.HookRequest.$Properties=} [properties] Properties to set
             * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
             */
            const HookRequest = function (properties) {
                if (properties)
                    for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                        if (properties[keys[i]] != null && keys[i] !== "__proto__")
                            this[keys[i]] = properties[keys[i]];
            };

            /**
             * HookRequest event.
             * @member {wasmhooks.v1.HookEvent} event
             * @memberof wasmhooks.v1.HookRequest
             * @instance
             */
            HookRequest.prototype.event = 0;

            /**
             * HookRequest context.
             * @member {wasmhooks.v1.HookContext.$Properties|null|undefined} context
             * @memberof wasmhooks.v1.HookRequest
             * @instance
             */
            HookRequest.prototype.context = null;

            /**
             * HookRequest bindingIndex.
             * @member {number} bindingIndex
             * @memberof wasmhooks.v1.HookRequest
             * @instance
             */
            HookRequest.prototype.bindingIndex = 0;

            /**
             * HookRequest session.
             * @member {wasmhooks.v1.SessionPayload.$Properties|null|undefined} session
             * @memberof wasmhooks.v1.HookRequest
             * @instance
             */
            HookRequest.prototype.session = null;

            /**
             * HookRequest prompt.
             * @member {wasmhooks.v1.PromptPayload.$Properties|null|undefined} prompt
             * @memberof wasmhooks.v1.HookRequest
             * @instance
             */
            HookRequest.prototype.prompt = null;

            /**
             * HookRequest toolUse.
             * @member {wasmhooks.v1.ToolUsePayload.$Properties|null|undefined} toolUse
             * @memberof wasmhooks.v1.HookRequest
             * @instance
             */
            HookRequest.prototype.toolUse = null;

            /**
             * HookRequest toolResult.
             * @member {wasmhooks.v1.ToolResultPayload.$Properties|null|undefined} toolResult
             * @memberof wasmhooks.v1.HookRequest
             * @instance
             */
            HookRequest.prototype.toolResult = null;

            /**
             * HookRequest toolBatch.
             * @member {wasmhooks.v1.ToolBatchPayload.$Properties|null|undefined} toolBatch
             * @memberof wasmhooks.v1.HookRequest
             * @instance
             */
            HookRequest.prototype.toolBatch = null;

            /**
             * HookRequest stop.
             * @member {wasmhooks.v1.StopPayload.$Properties|null|undefined} stop
             * @memberof wasmhooks.v1.HookRequest
             * @instance
             */
            HookRequest.prototype.stop = null;

            /**
             * HookRequest subagent.
             * @member {wasmhooks.v1.SubagentPayload.$Properties|null|undefined} subagent
             * @memberof wasmhooks.v1.HookRequest
             * @instance
             */
            HookRequest.prototype.subagent = null;

            /**
             * HookRequest compact.
             * @member {wasmhooks.v1.CompactPayload.$Properties|null|undefined} compact
             * @memberof wasmhooks.v1.HookRequest
             * @instance
             */
            HookRequest.prototype.compact = null;

            /**
             * HookRequest notification.
             * @member {wasmhooks.v1.NotificationPayload.$Properties|null|undefined} notification
             * @memberof wasmhooks.v1.HookRequest
             * @instance
             */
            HookRequest.prototype.notification = null;

            /**
             * HookRequest error.
             * @member {wasmhooks.v1.ErrorPayload.$Properties|null|undefined} error
             * @memberof wasmhooks.v1.HookRequest
             * @instance
             */
            HookRequest.prototype.error = null;

            // OneOf field names bound to virtual getters and setters
            let $oneOfFields;

            /**
             * HookRequest payload.
             * @member {"session"|"prompt"|"toolUse"|"toolResult"|"toolBatch"|"stop"|"subagent"|"compact"|"notification"|"error"|undefined} payload
             * @memberof wasmhooks.v1.HookRequest
             * @instance
             */
            $Object.defineProperty(HookRequest.prototype, "payload", {
                get: $util.oneOfGetter($oneOfFields = ["session", "prompt", "toolUse", "toolResult", "toolBatch", "stop", "subagent", "compact", "notification", "error"]),
                set: $util.oneOfSetter($oneOfFields)
            });

            /**
             * Encodes the specified HookRequest message. Does not implicitly {@link wasmhooks.v1.HookRequest.verify|verify} messages.
             * @function encode
             * @memberof wasmhooks.v1.HookRequest
             * @static
             * @param {wasmhooks.v1.HookRequest.$Properties} message HookRequest message or plain object to encode
             * @param {$protobuf.Writer} [writer] Writer to encode to
             * @returns {$protobuf.Writer} Writer
             */
            HookRequest.encode = function (message, writer, _depth) {
                if (!writer)
                    writer = $Writer.create();
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (message.event != null && $Object.hasOwnProperty.call(message, "event") && message.event !== 0)
                    writer.uint32(/* id 1, wireType 0 =*/8).int32(message.event);
                if (message.context != null && $Object.hasOwnProperty.call(message, "context"))
                    $root.wasmhooks.v1.HookContext.encode(message.context, writer.uint32(/* id 2, wireType 2 =*/18).fork(), _depth + 1).ldelim();
                if (message.bindingIndex != null && $Object.hasOwnProperty.call(message, "bindingIndex") && message.bindingIndex !== 0)
                    writer.uint32(/* id 3, wireType 0 =*/24).uint32(message.bindingIndex);
                if (message.session != null && $Object.hasOwnProperty.call(message, "session"))
                    $root.wasmhooks.v1.SessionPayload.encode(message.session, writer.uint32(/* id 10, wireType 2 =*/82).fork(), _depth + 1).ldelim();
                if (message.prompt != null && $Object.hasOwnProperty.call(message, "prompt"))
                    $root.wasmhooks.v1.PromptPayload.encode(message.prompt, writer.uint32(/* id 11, wireType 2 =*/90).fork(), _depth + 1).ldelim();
                if (message.toolUse != null && $Object.hasOwnProperty.call(message, "toolUse"))
                    $root.wasmhooks.v1.ToolUsePayload.encode(message.toolUse, writer.uint32(/* id 12, wireType 2 =*/98).fork(), _depth + 1).ldelim();
                if (message.toolResult != null && $Object.hasOwnProperty.call(message, "toolResult"))
                    $root.wasmhooks.v1.ToolResultPayload.encode(message.toolResult, writer.uint32(/* id 13, wireType 2 =*/106).fork(), _depth + 1).ldelim();
                if (message.toolBatch != null && $Object.hasOwnProperty.call(message, "toolBatch"))
                    $root.wasmhooks.v1.ToolBatchPayload.encode(message.toolBatch, writer.uint32(/* id 14, wireType 2 =*/114).fork(), _depth + 1).ldelim();
                if (message.stop != null && $Object.hasOwnProperty.call(message, "stop"))
                    $root.wasmhooks.v1.StopPayload.encode(message.stop, writer.uint32(/* id 15, wireType 2 =*/122).fork(), _depth + 1).ldelim();
                if (message.subagent != null && $Object.hasOwnProperty.call(message, "subagent"))
                    $root.wasmhooks.v1.SubagentPayload.encode(message.subagent, writer.uint32(/* id 16, wireType 2 =*/130).fork(), _depth + 1).ldelim();
                if (message.compact != null && $Object.hasOwnProperty.call(message, "compact"))
                    $root.wasmhooks.v1.CompactPayload.encode(message.compact, writer.uint32(/* id 17, wireType 2 =*/138).fork(), _depth + 1).ldelim();
                if (message.notification != null && $Object.hasOwnProperty.call(message, "notification"))
                    $root.wasmhooks.v1.NotificationPayload.encode(message.notification, writer.uint32(/* id 18, wireType 2 =*/146).fork(), _depth + 1).ldelim();
                if (message.error != null && $Object.hasOwnProperty.call(message, "error"))
                    $root.wasmhooks.v1.ErrorPayload.encode(message.error, writer.uint32(/* id 19, wireType 2 =*/154).fork(), _depth + 1).ldelim();
                if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                    for (let i = 0; i < message.$unknowns.length; ++i)
                        writer.raw(message.$unknowns[i]);
                return writer;
            };

            /**
             * Decodes a HookRequest message from the specified reader or buffer.
             * @function decode
             * @memberof wasmhooks.v1.HookRequest
             * @static
             * @param {$protobuf.Reader|Uint8Array} reader Reader or buffer to decode from
             * @param {number} [length] Message length if known beforehand
             * @returns {wasmhooks.v1.HookRequest & wasmhooks.v1.HookRequest.$Shape} HookRequest
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            HookRequest.decode = function (reader, length, _end, _depth, _target) {
                if (!(reader instanceof $Reader))
                    reader = $Reader.create(reader);
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                let end, message, value;
                if (length === $undefined)
                    end = reader.len;
                else {
                    end = reader.pos + length;
                    if (end > reader.len)
                        throw $RangeError("index out of range");
                    length = reader.len;
                    reader.len = end;
                }
                message = _target || new $root.wasmhooks.v1.HookRequest();
                while (reader.pos < end) {
                    let start = reader.pos;
                    let tag = reader.tag();
                    if (tag === _end) {
                        _end = $undefined;
                        break;
                    }
                    let wireType = tag & 7;
                    switch (tag >>>= 3) {
                    case 1: {
                            if (wireType !== 0)
                                break;
                            if (value = reader.int32())
                                message.event = value;
                            else
                                delete message.event;
                            continue;
                        }
                    case 2: {
                            if (wireType !== 2)
                                break;
                            message.context = $root.wasmhooks.v1.HookContext.decode(reader, reader.size(), $undefined, _depth + 1, message.context);
                            continue;
                        }
                    case 3: {
                            if (wireType !== 0)
                                break;
                            if (value = reader.uint32())
                                message.bindingIndex = value;
                            else
                                delete message.bindingIndex;
                            continue;
                        }
                    case 10: {
                            if (wireType !== 2)
                                break;
                            message.session = $root.wasmhooks.v1.SessionPayload.decode(reader, reader.size(), $undefined, _depth + 1, message.session);
                            message.payload = "session";
                            continue;
                        }
                    case 11: {
                            if (wireType !== 2)
                                break;
                            message.prompt = $root.wasmhooks.v1.PromptPayload.decode(reader, reader.size(), $undefined, _depth + 1, message.prompt);
                            message.payload = "prompt";
                            continue;
                        }
                    case 12: {
                            if (wireType !== 2)
                                break;
                            message.toolUse = $root.wasmhooks.v1.ToolUsePayload.decode(reader, reader.size(), $undefined, _depth + 1, message.toolUse);
                            message.payload = "toolUse";
                            continue;
                        }
                    case 13: {
                            if (wireType !== 2)
                                break;
                            message.toolResult = $root.wasmhooks.v1.ToolResultPayload.decode(reader, reader.size(), $undefined, _depth + 1, message.toolResult);
                            message.payload = "toolResult";
                            continue;
                        }
                    case 14: {
                            if (wireType !== 2)
                                break;
                            message.toolBatch = $root.wasmhooks.v1.ToolBatchPayload.decode(reader, reader.size(), $undefined, _depth + 1, message.toolBatch);
                            message.payload = "toolBatch";
                            continue;
                        }
                    case 15: {
                            if (wireType !== 2)
                                break;
                            message.stop = $root.wasmhooks.v1.StopPayload.decode(reader, reader.size(), $undefined, _depth + 1, message.stop);
                            message.payload = "stop";
                            continue;
                        }
                    case 16: {
                            if (wireType !== 2)
                                break;
                            message.subagent = $root.wasmhooks.v1.SubagentPayload.decode(reader, reader.size(), $undefined, _depth + 1, message.subagent);
                            message.payload = "subagent";
                            continue;
                        }
                    case 17: {
                            if (wireType !== 2)
                                break;
                            message.compact = $root.wasmhooks.v1.CompactPayload.decode(reader, reader.size(), $undefined, _depth + 1, message.compact);
                            message.payload = "compact";
                            continue;
                        }
                    case 18: {
                            if (wireType !== 2)
                                break;
                            message.notification = $root.wasmhooks.v1.NotificationPayload.decode(reader, reader.size(), $undefined, _depth + 1, message.notification);
                            message.payload = "notification";
                            continue;
                        }
                    case 19: {
                            if (wireType !== 2)
                                break;
                            message.error = $root.wasmhooks.v1.ErrorPayload.decode(reader, reader.size(), $undefined, _depth + 1, message.error);
                            message.payload = "error";
                            continue;
                        }
                    }
                    reader.skipType(wireType, _depth, tag);
                    if (!reader.discardUnknown) {
                        $util.makeProp(message, "$unknowns", false);
                        (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                    }
                }
                if (length !== $undefined) {
                    if (reader.pos !== end)
                        throw $RangeError("index out of range");
                    reader.len = length;
                }
                if (_end !== $undefined)
                    throw $Error("missing end group");
                return message;
            };

            /**
             * Gets the type url for HookRequest
             * @function getTypeUrl
             * @memberof wasmhooks.v1.HookRequest
             * @static
             * @param {string} [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
             * @returns {string} The type url
             */
            HookRequest.getTypeUrl = function(prefix) {
                if (prefix === $undefined)
                    prefix = "type.googleapis.com";
                return prefix + "/wasmhooks.v1.HookRequest";
            };

            return HookRequest;
        })();

        /**
         * Decision enum.
         * @name wasmhooks.v1.Decision
         * @enum {number}
         * @property {number} DECISION_UNSPECIFIED=0 DECISION_UNSPECIFIED value
         * @property {number} DECISION_CONTINUE=1 DECISION_CONTINUE value
         * @property {number} DECISION_ALLOW=2 DECISION_ALLOW value
         * @property {number} DECISION_DENY=3 DECISION_DENY value
         * @property {number} DECISION_ASK=4 DECISION_ASK value
         * @property {number} DECISION_STOP=5 DECISION_STOP value
         * @property {number} DECISION_BLOCK=6 DECISION_BLOCK value
         */
        v1.Decision = (function() {
            const valuesById = $Object.create(null), values = $Object.create(valuesById);
            values[valuesById[0] = "DECISION_UNSPECIFIED"] = 0;
            values[valuesById[1] = "DECISION_CONTINUE"] = 1;
            values[valuesById[2] = "DECISION_ALLOW"] = 2;
            values[valuesById[3] = "DECISION_DENY"] = 3;
            values[valuesById[4] = "DECISION_ASK"] = 4;
            values[valuesById[5] = "DECISION_STOP"] = 5;
            values[valuesById[6] = "DECISION_BLOCK"] = 6;
            return values;
        })();

        v1.HookResponse = (function() {

            /**
             * Properties of a HookResponse.
             * @typedef {Object} wasmhooks.v1.HookResponse.$Properties
             * @property {wasmhooks.v1.Decision|null} [decision] HookResponse decision
             * @property {string|null} [reason] HookResponse reason
             * @property {string|null} [updatedInputJson] HookResponse updatedInputJson
             * @property {string|null} [additionalContext] HookResponse additionalContext
             * @property {string|null} [systemMessage] HookResponse systemMessage
             * @property {string|null} [updatedOutputJson] HookResponse updatedOutputJson
             * @property {string|null} [updatedPermissionsJson] HookResponse updatedPermissionsJson
             * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
             */

            /**
             * Properties of a HookResponse.
             * @memberof wasmhooks.v1
             * @interface IHookResponse
             * @augments wasmhooks.v1.HookResponse.$Properties
             * @deprecated Use wasmhooks.v1.HookResponse.$Properties instead.
             */

            /**
             * Shape of a HookResponse.
             * @typedef {wasmhooks.v1.HookResponse.$Properties} wasmhooks.v1.HookResponse.$Shape
             */

            /**
             * Constructs a new HookResponse.
             * @memberof wasmhooks.v1
             * @classdesc Represents a HookResponse.
             * @constructor
             * @param {wasmhooks.v1.HookResponse.$Properties=} [properties] Properties to set
             * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
             */
            const HookResponse = function (properties) {
                if (properties)
                    for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                        if (properties[keys[i]] != null && keys[i] !== "__proto__")
                            this[keys[i]] = properties[keys[i]];
            };

            /**
             * HookResponse decision.
             * @member {wasmhooks.v1.Decision} decision
             * @memberof wasmhooks.v1.HookResponse
             * @instance
             */
            HookResponse.prototype.decision = 0;

            /**
             * HookResponse reason.
             * @member {string} reason
             * @memberof wasmhooks.v1.HookResponse
             * @instance
             */
            HookResponse.prototype.reason = "";

            /**
             * HookResponse updatedInputJson.
             * @member {string} updatedInputJson
             * @memberof wasmhooks.v1.HookResponse
             * @instance
             */
            HookResponse.prototype.updatedInputJson = "";

            /**
             * HookResponse additionalContext.
             * @member {string} additionalContext
             * @memberof wasmhooks.v1.HookResponse
             * @instance
             */
            HookResponse.prototype.additionalContext = "";

            /**
             * HookResponse systemMessage.
             * @member {string} systemMessage
             * @memberof wasmhooks.v1.HookResponse
             * @instance
             */
            HookResponse.prototype.systemMessage = "";

            /**
             * HookResponse updatedOutputJson.
             * @member {string} updatedOutputJson
             * @memberof wasmhooks.v1.HookResponse
             * @instance
             */
            HookResponse.prototype.updatedOutputJson = "";

            /**
             * HookResponse updatedPermissionsJson.
             * @member {string} updatedPermissionsJson
             * @memberof wasmhooks.v1.HookResponse
             * @instance
             */
            HookResponse.prototype.updatedPermissionsJson = "";

            /**
             * Encodes the specified HookResponse message. Does not implicitly {@link wasmhooks.v1.HookResponse.verify|verify} messages.
             * @function encode
             * @memberof wasmhooks.v1.HookResponse
             * @static
             * @param {wasmhooks.v1.HookResponse.$Properties} message HookResponse message or plain object to encode
             * @param {$protobuf.Writer} [writer] Writer to encode to
             * @returns {$protobuf.Writer} Writer
             */
            HookResponse.encode = function (message, writer, _depth) {
                if (!writer)
                    writer = $Writer.create();
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (message.decision != null && $Object.hasOwnProperty.call(message, "decision") && message.decision !== 0)
                    writer.uint32(/* id 1, wireType 0 =*/8).int32(message.decision);
                if (message.reason != null && $Object.hasOwnProperty.call(message, "reason") && message.reason !== "")
                    writer.uint32(/* id 2, wireType 2 =*/18).string(message.reason);
                if (message.updatedInputJson != null && $Object.hasOwnProperty.call(message, "updatedInputJson") && message.updatedInputJson !== "")
                    writer.uint32(/* id 3, wireType 2 =*/26).string(message.updatedInputJson);
                if (message.additionalContext != null && $Object.hasOwnProperty.call(message, "additionalContext") && message.additionalContext !== "")
                    writer.uint32(/* id 4, wireType 2 =*/34).string(message.additionalContext);
                if (message.systemMessage != null && $Object.hasOwnProperty.call(message, "systemMessage") && message.systemMessage !== "")
                    writer.uint32(/* id 5, wireType 2 =*/42).string(message.systemMessage);
                if (message.updatedOutputJson != null && $Object.hasOwnProperty.call(message, "updatedOutputJson") && message.updatedOutputJson !== "")
                    writer.uint32(/* id 6, wireType 2 =*/50).string(message.updatedOutputJson);
                if (message.updatedPermissionsJson != null && $Object.hasOwnProperty.call(message, "updatedPermissionsJson") && message.updatedPermissionsJson !== "")
                    writer.uint32(/* id 7, wireType 2 =*/58).string(message.updatedPermissionsJson);
                if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                    for (let i = 0; i < message.$unknowns.length; ++i)
                        writer.raw(message.$unknowns[i]);
                return writer;
            };

            /**
             * Decodes a HookResponse message from the specified reader or buffer.
             * @function decode
             * @memberof wasmhooks.v1.HookResponse
             * @static
             * @param {$protobuf.Reader|Uint8Array} reader Reader or buffer to decode from
             * @param {number} [length] Message length if known beforehand
             * @returns {wasmhooks.v1.HookResponse & wasmhooks.v1.HookResponse.$Shape} HookResponse
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            HookResponse.decode = function (reader, length, _end, _depth, _target) {
                if (!(reader instanceof $Reader))
                    reader = $Reader.create(reader);
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                let end, message, value;
                if (length === $undefined)
                    end = reader.len;
                else {
                    end = reader.pos + length;
                    if (end > reader.len)
                        throw $RangeError("index out of range");
                    length = reader.len;
                    reader.len = end;
                }
                message = _target || new $root.wasmhooks.v1.HookResponse();
                while (reader.pos < end) {
                    let start = reader.pos;
                    let tag = reader.tag();
                    if (tag === _end) {
                        _end = $undefined;
                        break;
                    }
                    let wireType = tag & 7;
                    switch (tag >>>= 3) {
                    case 1: {
                            if (wireType !== 0)
                                break;
                            if (value = reader.int32())
                                message.decision = value;
                            else
                                delete message.decision;
                            continue;
                        }
                    case 2: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.stringVerify()).length)
                                message.reason = value;
                            else
                                delete message.reason;
                            continue;
                        }
                    case 3: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.stringVerify()).length)
                                message.updatedInputJson = value;
                            else
                                delete message.updatedInputJson;
                            continue;
                        }
                    case 4: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.stringVerify()).length)
                                message.additionalContext = value;
                            else
                                delete message.additionalContext;
                            continue;
                        }
                    case 5: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.stringVerify()).length)
                                message.systemMessage = value;
                            else
                                delete message.systemMessage;
                            continue;
                        }
                    case 6: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.stringVerify()).length)
                                message.updatedOutputJson = value;
                            else
                                delete message.updatedOutputJson;
                            continue;
                        }
                    case 7: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.stringVerify()).length)
                                message.updatedPermissionsJson = value;
                            else
                                delete message.updatedPermissionsJson;
                            continue;
                        }
                    }
                    reader.skipType(wireType, _depth, tag);
                    if (!reader.discardUnknown) {
                        $util.makeProp(message, "$unknowns", false);
                        (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                    }
                }
                if (length !== $undefined) {
                    if (reader.pos !== end)
                        throw $RangeError("index out of range");
                    reader.len = length;
                }
                if (_end !== $undefined)
                    throw $Error("missing end group");
                return message;
            };

            /**
             * Gets the type url for HookResponse
             * @function getTypeUrl
             * @memberof wasmhooks.v1.HookResponse
             * @static
             * @param {string} [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
             * @returns {string} The type url
             */
            HookResponse.getTypeUrl = function(prefix) {
                if (prefix === $undefined)
                    prefix = "type.googleapis.com";
                return prefix + "/wasmhooks.v1.HookResponse";
            };

            return HookResponse;
        })();

        v1.ToolRequest = (function() {

            /**
             * Properties of a ToolRequest.
             * @typedef {Object} wasmhooks.v1.ToolRequest.$Properties
             * @property {string|null} [name] ToolRequest name
             * @property {string|null} [inputJson] ToolRequest inputJson
             * @property {wasmhooks.v1.HookContext.$Properties|null} [context] ToolRequest context
             * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
             */

            /**
             * Properties of a ToolRequest.
             * @memberof wasmhooks.v1
             * @interface IToolRequest
             * @augments wasmhooks.v1.ToolRequest.$Properties
             * @deprecated Use wasmhooks.v1.ToolRequest.$Properties instead.
             */

            /**
             * Shape of a ToolRequest.
             * @typedef {wasmhooks.v1.ToolRequest.$Properties} wasmhooks.v1.ToolRequest.$Shape
             */

            /**
             * Constructs a new ToolRequest.
             * @memberof wasmhooks.v1
             * @classdesc Represents a ToolRequest.
             * @constructor
             * @param {wasmhooks.v1.ToolRequest.$Properties=} [properties] Properties to set
             * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
             */
            const ToolRequest = function (properties) {
                if (properties)
                    for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                        if (properties[keys[i]] != null && keys[i] !== "__proto__")
                            this[keys[i]] = properties[keys[i]];
            };

            /**
             * ToolRequest name.
             * @member {string} name
             * @memberof wasmhooks.v1.ToolRequest
             * @instance
             */
            ToolRequest.prototype.name = "";

            /**
             * ToolRequest inputJson.
             * @member {string} inputJson
             * @memberof wasmhooks.v1.ToolRequest
             * @instance
             */
            ToolRequest.prototype.inputJson = "";

            /**
             * ToolRequest context.
             * @member {wasmhooks.v1.HookContext.$Properties|null|undefined} context
             * @memberof wasmhooks.v1.ToolRequest
             * @instance
             */
            ToolRequest.prototype.context = null;

            /**
             * Encodes the specified ToolRequest message. Does not implicitly {@link wasmhooks.v1.ToolRequest.verify|verify} messages.
             * @function encode
             * @memberof wasmhooks.v1.ToolRequest
             * @static
             * @param {wasmhooks.v1.ToolRequest.$Properties} message ToolRequest message or plain object to encode
             * @param {$protobuf.Writer} [writer] Writer to encode to
             * @returns {$protobuf.Writer} Writer
             */
            ToolRequest.encode = function (message, writer, _depth) {
                if (!writer)
                    writer = $Writer.create();
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (message.name != null && $Object.hasOwnProperty.call(message, "name") && message.name !== "")
                    writer.uint32(/* id 1, wireType 2 =*/10).string(message.name);
                if (message.inputJson != null && $Object.hasOwnProperty.call(message, "inputJson") && message.inputJson !== "")
                    writer.uint32(/* id 2, wireType 2 =*/18).string(message.inputJson);
                if (message.context != null && $Object.hasOwnProperty.call(message, "context"))
                    $root.wasmhooks.v1.HookContext.encode(message.context, writer.uint32(/* id 3, wireType 2 =*/26).fork(), _depth + 1).ldelim();
                if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                    for (let i = 0; i < message.$unknowns.length; ++i)
                        writer.raw(message.$unknowns[i]);
                return writer;
            };

            /**
             * Decodes a ToolRequest message from the specified reader or buffer.
             * @function decode
             * @memberof wasmhooks.v1.ToolRequest
             * @static
             * @param {$protobuf.Reader|Uint8Array} reader Reader or buffer to decode from
             * @param {number} [length] Message length if known beforehand
             * @returns {wasmhooks.v1.ToolRequest & wasmhooks.v1.ToolRequest.$Shape} ToolRequest
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            ToolRequest.decode = function (reader, length, _end, _depth, _target) {
                if (!(reader instanceof $Reader))
                    reader = $Reader.create(reader);
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                let end, message, value;
                if (length === $undefined)
                    end = reader.len;
                else {
                    end = reader.pos + length;
                    if (end > reader.len)
                        throw $RangeError("index out of range");
                    length = reader.len;
                    reader.len = end;
                }
                message = _target || new $root.wasmhooks.v1.ToolRequest();
                while (reader.pos < end) {
                    let start = reader.pos;
                    let tag = reader.tag();
                    if (tag === _end) {
                        _end = $undefined;
                        break;
                    }
                    let wireType = tag & 7;
                    switch (tag >>>= 3) {
                    case 1: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.stringVerify()).length)
                                message.name = value;
                            else
                                delete message.name;
                            continue;
                        }
                    case 2: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.stringVerify()).length)
                                message.inputJson = value;
                            else
                                delete message.inputJson;
                            continue;
                        }
                    case 3: {
                            if (wireType !== 2)
                                break;
                            message.context = $root.wasmhooks.v1.HookContext.decode(reader, reader.size(), $undefined, _depth + 1, message.context);
                            continue;
                        }
                    }
                    reader.skipType(wireType, _depth, tag);
                    if (!reader.discardUnknown) {
                        $util.makeProp(message, "$unknowns", false);
                        (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                    }
                }
                if (length !== $undefined) {
                    if (reader.pos !== end)
                        throw $RangeError("index out of range");
                    reader.len = length;
                }
                if (_end !== $undefined)
                    throw $Error("missing end group");
                return message;
            };

            /**
             * Gets the type url for ToolRequest
             * @function getTypeUrl
             * @memberof wasmhooks.v1.ToolRequest
             * @static
             * @param {string} [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
             * @returns {string} The type url
             */
            ToolRequest.getTypeUrl = function(prefix) {
                if (prefix === $undefined)
                    prefix = "type.googleapis.com";
                return prefix + "/wasmhooks.v1.ToolRequest";
            };

            return ToolRequest;
        })();

        v1.ToolResponse = (function() {

            /**
             * Properties of a ToolResponse.
             * @typedef {Object} wasmhooks.v1.ToolResponse.$Properties
             * @property {string|null} [content] ToolResponse content
             * @property {boolean|null} [isError] ToolResponse isError
             * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
             */

            /**
             * Properties of a ToolResponse.
             * @memberof wasmhooks.v1
             * @interface IToolResponse
             * @augments wasmhooks.v1.ToolResponse.$Properties
             * @deprecated Use wasmhooks.v1.ToolResponse.$Properties instead.
             */

            /**
             * Shape of a ToolResponse.
             * @typedef {wasmhooks.v1.ToolResponse.$Properties} wasmhooks.v1.ToolResponse.$Shape
             */

            /**
             * Constructs a new ToolResponse.
             * @memberof wasmhooks.v1
             * @classdesc Represents a ToolResponse.
             * @constructor
             * @param {wasmhooks.v1.ToolResponse.$Properties=} [properties] Properties to set
             * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
             */
            const ToolResponse = function (properties) {
                if (properties)
                    for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                        if (properties[keys[i]] != null && keys[i] !== "__proto__")
                            this[keys[i]] = properties[keys[i]];
            };

            /**
             * ToolResponse content.
             * @member {string} content
             * @memberof wasmhooks.v1.ToolResponse
             * @instance
             */
            ToolResponse.prototype.content = "";

            /**
             * ToolResponse isError.
             * @member {boolean} isError
             * @memberof wasmhooks.v1.ToolResponse
             * @instance
             */
            ToolResponse.prototype.isError = false;

            /**
             * Encodes the specified ToolResponse message. Does not implicitly {@link wasmhooks.v1.ToolResponse.verify|verify} messages.
             * @function encode
             * @memberof wasmhooks.v1.ToolResponse
             * @static
             * @param {wasmhooks.v1.ToolResponse.$Properties} message ToolResponse message or plain object to encode
             * @param {$protobuf.Writer} [writer] Writer to encode to
             * @returns {$protobuf.Writer} Writer
             */
            ToolResponse.encode = function (message, writer, _depth) {
                if (!writer)
                    writer = $Writer.create();
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (message.content != null && $Object.hasOwnProperty.call(message, "content") && message.content !== "")
                    writer.uint32(/* id 1, wireType 2 =*/10).string(message.content);
                if (message.isError != null && $Object.hasOwnProperty.call(message, "isError") && message.isError !== false)
                    writer.uint32(/* id 2, wireType 0 =*/16).bool(message.isError);
                if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                    for (let i = 0; i < message.$unknowns.length; ++i)
                        writer.raw(message.$unknowns[i]);
                return writer;
            };

            /**
             * Decodes a ToolResponse message from the specified reader or buffer.
             * @function decode
             * @memberof wasmhooks.v1.ToolResponse
             * @static
             * @param {$protobuf.Reader|Uint8Array} reader Reader or buffer to decode from
             * @param {number} [length] Message length if known beforehand
             * @returns {wasmhooks.v1.ToolResponse & wasmhooks.v1.ToolResponse.$Shape} ToolResponse
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            ToolResponse.decode = function (reader, length, _end, _depth, _target) {
                if (!(reader instanceof $Reader))
                    reader = $Reader.create(reader);
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                let end, message, value;
                if (length === $undefined)
                    end = reader.len;
                else {
                    end = reader.pos + length;
                    if (end > reader.len)
                        throw $RangeError("index out of range");
                    length = reader.len;
                    reader.len = end;
                }
                message = _target || new $root.wasmhooks.v1.ToolResponse();
                while (reader.pos < end) {
                    let start = reader.pos;
                    let tag = reader.tag();
                    if (tag === _end) {
                        _end = $undefined;
                        break;
                    }
                    let wireType = tag & 7;
                    switch (tag >>>= 3) {
                    case 1: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.stringVerify()).length)
                                message.content = value;
                            else
                                delete message.content;
                            continue;
                        }
                    case 2: {
                            if (wireType !== 0)
                                break;
                            if (value = reader.bool())
                                message.isError = value;
                            else
                                delete message.isError;
                            continue;
                        }
                    }
                    reader.skipType(wireType, _depth, tag);
                    if (!reader.discardUnknown) {
                        $util.makeProp(message, "$unknowns", false);
                        (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                    }
                }
                if (length !== $undefined) {
                    if (reader.pos !== end)
                        throw $RangeError("index out of range");
                    reader.len = length;
                }
                if (_end !== $undefined)
                    throw $Error("missing end group");
                return message;
            };

            /**
             * Gets the type url for ToolResponse
             * @function getTypeUrl
             * @memberof wasmhooks.v1.ToolResponse
             * @static
             * @param {string} [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
             * @returns {string} The type url
             */
            ToolResponse.getTypeUrl = function(prefix) {
                if (prefix === $undefined)
                    prefix = "type.googleapis.com";
                return prefix + "/wasmhooks.v1.ToolResponse";
            };

            return ToolResponse;
        })();

        return v1;
    })();

    return wasmhooks;
})();

export {
  $root as default
};
