// The parts of Node's globals that are pure computation: `global`, `process` (output, exit, argv, nextTick,
// hrtime), `performance.now()`, atob/btoa, queueMicrotask and structuredClone. What would reach outside throws (refusals.js).
// One of the runtime's files (JavaScriptEngine joins them): it defines defineNodeGlobals.

function defineNodeGlobals(global, parts) {
    const hidden = (name, value) => Object.defineProperty(global, name,
        { value, writable: true, configurable: true, enumerable: false });
    hidden('global', global);
    // Millisecond resolution, as GraalJS gives Date.now() (js.performance would give the same; the JIT workers'
    // GraalJS refuses it under the sandbox policy).
    const timeOrigin = Date.now();
    hidden('performance', Object.freeze({
        timeOrigin,
        now: () => Date.now() - timeOrigin,
        toJSON: () => ({ timeOrigin }),
    }));
    hidden('console', parts.console);
    for (const [name, timer] of Object.entries(parts.timers)) {
        hidden(name, timer);
    }
    hidden('queueMicrotask', function queueMicrotask(callback) {
        if (typeof callback !== 'function') {
            throw new TypeError('The "callback" argument must be of type function. Received ' + typeof callback);
        }
        Promise.resolve().then(() => callback());
    });
    hidden('structuredClone', function structuredClone(value) {
        return cloneData(value, new Map());
    });
    hidden('btoa', function btoa(text) {
        const bytes = String(text);
        for (let i = 0; i < bytes.length; i++) {
            if (bytes.charCodeAt(i) > 255) {
                throw new Error('Invalid character');
            }
        }
        return base64(Uint8Array.from(bytes, c => c.charCodeAt(0)));
    });
    hidden('atob', function atob(text) {
        return String.fromCharCode(...unbase64(String(text)));
    });
    hidden('process', makeProcess(parts));
}

function makeProcess(parts) {
    const stream = (write) => ({
        write(chunk) {
            write(typeof chunk === 'string' ? chunk : String(chunk));
            return true;
        },
        isTTY: false,
    });
    const started = performance.now();
    const hrtime = function hrtime(previous) {
        const nanos = BigInt(Math.round((performance.now() - started) * 1e6));
        let seconds = Number(nanos / 1000000000n);
        let rest = Number(nanos % 1000000000n);
        if (Array.isArray(previous)) {
            seconds -= previous[0];
            rest -= previous[1];
            if (rest < 0) {
                seconds -= 1;
                rest += 1e9;
            }
        }
        return [seconds, rest];
    };
    hrtime.bigint = () => BigInt(Math.round((performance.now() - started) * 1e6));
    const process = {
        argv: ['node'],
        argv0: 'node',
        execArgv: [],
        platform: 'linux',
        exitCode: undefined,
        stdout: stream(parts.out),
        stderr: stream(parts.err),
        exit(code) {
            parts.exits.exit(code === undefined ? process.exitCode : code);
        },
        nextTick(callback, ...args) {
            queueMicrotask(() => callback(...args));
        },
        hrtime,
        uptime: () => (performance.now() - started) / 1000,
        cwd: refusing('process.cwd', 'the sandbox has no file system'),
        chdir: refusing('process.chdir', 'the sandbox has no file system'),
        kill: refusing('process.kill', 'the sandbox runs no processes'),
        memoryUsage: refusing('process.memoryUsage', 'the sandbox does not show its host'),
        on() { return process; },
        once() { return process; },
        off() { return process; },
    };
    Object.defineProperty(process, 'env', {
        get() { throw notAvailable('process.env', 'the sandbox has no environment'); },
        enumerable: false,
    });
    return process;
}

/** structuredClone for data: objects, arrays, Map, Set, Date, RegExp, typed arrays, cycles; functions refused. */
function cloneData(value, seen) {
    if (value === null || typeof value !== 'object') {
        if (typeof value === 'function' || typeof value === 'symbol') {
            throw new Error((typeof value === 'function' ? String(value).slice(0, 40) : String(value))
                + ' could not be cloned.');
        }
        return value;
    }
    if (seen.has(value)) {
        return seen.get(value);
    }
    let copy;
    if (value instanceof Date) {
        copy = new Date(value.getTime());
    } else if (value instanceof RegExp) {
        copy = new RegExp(value.source, value.flags);
    } else if (ArrayBuffer.isView(value)) {
        copy = new value.constructor(value);
    } else if (value instanceof ArrayBuffer) {
        copy = value.slice(0);
    } else if (value instanceof Map) {
        copy = new Map();
        seen.set(value, copy);
        for (const [k, v] of value) {
            copy.set(cloneData(k, seen), cloneData(v, seen));
        }
        return copy;
    } else if (value instanceof Set) {
        copy = new Set();
        seen.set(value, copy);
        for (const v of value) {
            copy.add(cloneData(v, seen));
        }
        return copy;
    } else if (value instanceof Error) {
        copy = new value.constructor(value.message);
    } else {
        copy = Array.isArray(value) ? [] : {};
        seen.set(value, copy);
        for (const key of Object.keys(value)) {
            copy[key] = cloneData(value[key], seen);
        }
        return copy;
    }
    seen.set(value, copy);
    return copy;
}

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

function base64(bytes) {
    let text = '';
    for (let i = 0; i < bytes.length; i += 3) {
        const n = (bytes[i] << 16) | ((bytes[i + 1] ?? 0) << 8) | (bytes[i + 2] ?? 0);
        text += BASE64[(n >> 18) & 63] + BASE64[(n >> 12) & 63]
            + (i + 1 < bytes.length ? BASE64[(n >> 6) & 63] : '=') + (i + 2 < bytes.length ? BASE64[n & 63] : '=');
    }
    return text;
}

function unbase64(text) {
    const clean = text.replace(/[\t\n\f\r ]/g, '').replace(/={1,2}$/, '');
    if (clean.length % 4 === 1 || /[^A-Za-z0-9+/]/.test(clean)) {
        throw new Error('The string to be decoded is not correctly encoded.');
    }
    const bytes = [];
    let bits = 0;
    let buffer = 0;
    for (const c of clean) {
        buffer = (buffer << 6) | BASE64.indexOf(c);
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            bytes.push((buffer >> bits) & 255);
        }
    }
    return bytes;
}
