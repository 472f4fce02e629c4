// What is not here, said plainly: the host's globals GraalJS adds are removed, and Node's ways out of the
// sandbox (modules, files, network, processes, threads, the environment) throw an error that says so.
// One of the runtime's files (JavaScriptEngine joins them): it defines removeHostGlobals and defineRefusals.

/** GraalJS's globals that reach the host or the shell; CONSTRAINED refuses the options that would drop them. */
const HOST_GLOBALS = ['Java', 'Packages', 'java', 'javafx', 'javax', 'com', 'org', 'edu', 'arguments', 'Graal',
    'Polyglot', 'load', 'loadWithNewGlobal', 'print', 'printErr', 'quit', 'read', 'readbuffer', 'readline'];

function removeHostGlobals(global) {
    for (const name of HOST_GLOBALS) {
        delete global[name];
    }
}

const WHAT_IS_HERE = 'this sandbox runs plain JavaScript (ECMAScript 2024) with no modules, files, network, processes,'
    + ' threads or environment; JSON, Math, Intl, Map, Set, Promise, console and timers are available';

/** An Error saying that {@code what} is not available here, and why. */
function notAvailable(what, why) {
    return new Error(what + ' is not available here: ' + why + '.');
}

/** A function, callable and constructible, that throws notAvailable; named, so that a stack shows what was called. */
function refusing(what, why) {
    const refuse = function () {
        throw notAvailable(what, why);
    };
    Object.defineProperty(refuse, 'name', { value: what });
    return refuse;
}

function defineRefusals(global) {
    const hidden = (name, value) => Object.defineProperty(global, name,
        { value, writable: true, configurable: true, enumerable: false });
    const requireRefused = function require(name) {
        throw notAvailable('require(' + JSON.stringify(String(name)) + ')', WHAT_IS_HERE);
    };
    hidden('require', requireRefused);
    hidden('fetch', refusing('fetch', 'the sandbox has no network'));
    for (const name of ['XMLHttpRequest', 'WebSocket', 'EventSource']) {
        hidden(name, refusing(name, 'the sandbox has no network'));
    }
    for (const name of ['Worker', 'SharedWorker', 'importScripts']) {
        hidden(name, refusing(name, 'the sandbox runs no threads or workers'));
    }
}
