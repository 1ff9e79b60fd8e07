/**
 * What a tool may be called, whoever defines it (the app, a plugin, an
 * Extism export, an MCP server after its names are mapped): the model APIs'
 * rule. Permission rules, hook matchers and the operator's permission
 * question all go by the name, and it is ASCII, so no tool can pass for
 * another by the look of its name (a Cyrillic `а` in `Bаsh`).
 */
export const TOOL_NAME = /^[A-Za-z0-9_-]{1,64}$/;

/** The rule in words, for error messages. */
export const TOOL_NAME_RULE = '1-64 letters, digits, _ or -';
