// Code mode: `tools` (also `context.tools`), the operator's other MCP tools, and ToolError, as Python's
// context.tools offers them (prelude/tools.py), in JavaScript's shape: each call returns a promise, so code awaits
// it. One of the runtime's files (JavaScriptEngine joins them): it defines makeTools, which runtime.js calls.
// Every request goes to the supervisor through `bridge`, which enforces the allow-list, the budget and the
// parameter limits; the checks here only make mistakes fail early and clearly.

/** @param bridge the worker's door to the operator's tools, called (op, tool, paramsJson) and answering JSON text */
function makeTools(bridge) {
    class ToolError extends Error {
        /**
         * kind: not_configured, not_allowed, invalid_params, limit_exceeded, timeout, server_unavailable,
         * tool_error, protocol_error or result_too_large; tool: the tool's name; result: the tool's own answer
         * (tool_error only).
         */
        constructor(kind, tool, message, result) {
            super('[' + kind + '] ' + (tool || '-') + ': ' + message);
            this.name = 'ToolError';
            this.kind = kind;
            this.tool = tool;
            this.result = result;
        }
    }

    function request(op, name, paramsText) {
        const reply = JSON.parse(bridge(op, name, paramsText === undefined ? null : paramsText));
        if (reply.ok) {
            return reply.value;
        }
        const error = reply.error || {};
        throw new ToolError(error.kind || 'protocol_error', error.tool || name, error.message || '', error.result);
    }

    /** Where `value` holds something JSON cannot carry, e.g. "params.when is a Date"; null if nowhere. */
    function nonJson(value, path, depth) {
        if (depth > 64) {
            return path + ' is nested more than 64 levels deep';
        }
        if (value === null || typeof value === 'string' || typeof value === 'boolean') {
            return null;
        }
        if (typeof value === 'number') {
            return Number.isFinite(value) ? null : path + ' is ' + value;
        }
        if (Array.isArray(value)) {
            for (let i = 0; i < value.length; i++) {
                const found = nonJson(value[i], path + '[' + i + ']', depth + 1);
                if (found) {
                    return found;
                }
            }
            return null;
        }
        if (typeof value === 'object' && [Object.prototype, null].includes(Object.getPrototypeOf(value))) {
            for (const [key, item] of Object.entries(value)) {
                const found = nonJson(item, path + '.' + key, depth + 1);
                if (found) {
                    return found;
                }
            }
            return null;
        }
        const kind = typeof value === 'object' ? (value.constructor && value.constructor.name) || 'object' : typeof value;
        return path + ' is ' + (/^[aeiou]/i.test(kind) ? 'an ' : 'a ') + kind + ', which is not JSON';
    }

    /** A promise of what `work` returns, or of its error: a tool call fails as a rejection, never synchronously. */
    function settle(work) {
        try {
            return Promise.resolve(work());
        } catch (e) {
            return Promise.reject(e);
        }
    }

    function call(name, params, options) {
        return settle(() => {
            if (typeof name !== 'string') {
                throw new TypeError('the tool name must be a string such as "server.tool", not ' + typeof name);
            }
            const args = params === undefined ? {} : params;
            if (args === null || typeof args !== 'object' || Array.isArray(args)) {
                throw new ToolError('invalid_params', name, 'params must be an object (a JSON object), not '
                    + (Array.isArray(args) ? 'an array' : String(args === null ? 'null' : typeof args)));
            }
            const problem = nonJson(args, 'params', 0);
            if (problem) {
                throw new ToolError('invalid_params', name, problem);
            }
            return request(options && options.raw ? 'call_raw' : 'call', name, JSON.stringify(args));
        });
    }

    /** A tool's name as an identifier, as Python's stubs name it: `get-sum` -> get_sum, `2fa` -> _2fa. */
    function identifier(name) {
        const ident = name.replace(/[^A-Za-z0-9_]/g, '_') || '_';
        return /^[0-9]/.test(ident) ? '_' + ident : ident;
    }

    /** `tools.<server>.<tool>(params)`: the server's tools, by name or by identifier, listed when first used. */
    function serverTools(server) {
        let names = null;
        const byName = tool => {
            if (names === null) {
                names = new Map();
                for (const entry of request('list', server)) {
                    const short = String(entry.tool).slice(server.length + 1);
                    names.set(short, entry.tool);
                    names.set(identifier(short), entry.tool);
                }
            }
            return names.get(tool);
        };
        return new Proxy({}, {
            get(_, tool) {
                if (typeof tool !== 'string' || tool === 'then') {
                    return undefined;
                }
                return params => settle(() => {
                    const name = byName(tool);
                    if (name === undefined) {
                        throw new ToolError('not_allowed', server + '.' + tool,
                            'no such tool is allowed; await tools.list(' + JSON.stringify(server) + ') shows those that are');
                    }
                    return call(name, params);
                });
            },
        });
    }

    const api = {
        call,
        list: server => settle(() => request('list', server === undefined ? '' : String(server))),
        search: (words, limit) => settle(() => request('search', String(words),
            JSON.stringify({ limit: Math.trunc(limit === undefined ? 5 : limit) }))),
        describe: name => settle(() => request('describe', String(name))),
        ToolError,
    };
    const servers = new Map();
    const tools = new Proxy(api, {
        get(target, key) {
            if (typeof key !== 'string' || key in target || key === 'then') {
                return target[key];
            }
            if (!servers.has(key)) {
                servers.set(key, serverTools(key));
            }
            return servers.get(key);
        },
    });
    return { tools, ToolError };
}
