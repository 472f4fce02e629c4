// Files: `files`, the call's scratch space (the working directory /home/sandbox and /tmp, in memory), the same
// space Python's open() sees. execute_code's `files` are placed in the working directory first, and what the code
// writes there comes back in the result's `files`. One of the runtime's files (JavaScriptEngine joins them): it
// defines makeFiles, which runtime.js calls. Contents cross the bridge as base64 (node.js's base64 and unbase64).

/** @param bridge the worker's door to the scratch space, called (op, path, dataBase64) and answering JSON text */
function makeFiles(bridge) {
    const encoder = new TextEncoder();
    const decoder = new TextDecoder();

    function request(op, path, data) {
        if (typeof path !== 'string') {
            throw new TypeError('The "path" argument must be of type string. Received ' + typeof path);
        }
        const reply = JSON.parse(bridge(op, path, data === undefined ? null : data));
        if (reply.ok) {
            return reply.value;
        }
        const error = new Error(reply.code + ': ' + reply.message);
        error.code = reply.code;
        error.path = path;
        throw error;
    }

    function bytesOf(data) {
        if (typeof data === 'string') {
            return encoder.encode(data);
        }
        if (data instanceof ArrayBuffer) {
            return new Uint8Array(data);
        }
        if (ArrayBuffer.isView(data)) {
            return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
        }
        throw new TypeError('files.write takes a string, an ArrayBuffer or a typed array, not '
            + (data === null ? 'null' : typeof data));
    }

    const files = {
        /** The file's text, decoded as UTF-8. */
        read: path => decoder.decode(Uint8Array.from(unbase64(request('read', path)))),
        /** The file's bytes. */
        readBytes: path => Uint8Array.from(unbase64(request('read', path))),
        /** Writes a string (as UTF-8) or bytes, replacing the file. */
        write: (path, data) => {
            request('write', path, base64(bytesOf(data)));
        },
        /** Adds a string (as UTF-8) or bytes at the file's end, creating it if missing. */
        append: (path, data) => {
            request('append', path, base64(bytesOf(data)));
        },
        /** The names in a folder, sorted; the working directory by default. */
        list: path => request('list', path === undefined ? '.' : path),
        exists: path => {
            try {
                request('stat', path);
                return true;
            } catch (e) {
                if (e.code === 'ENOENT') {
                    return false;
                }
                throw e;
            }
        },
        /** {directory, size, modified} (modified in ms since the epoch). */
        stat: path => request('stat', path),
        /** Removes a file or an empty folder. */
        remove: path => {
            request('remove', path);
        },
        mkdir: path => {
            request('mkdir', path);
        },
    };
    return Object.freeze(files);
}
