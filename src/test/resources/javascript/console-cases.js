// Cases for the guest console (src/main/resources/dev/pysandbox/worker/javascript/console.js).
// Each case is a snippet that calls console; record-console-cases.js runs every one under real Node and writes
// console-cases.recorded.json, which NodeConsoleFormatTest compares the guest console against byte for byte.
// A case whose output cannot be the same on every run (timings, real stack frames) gives stdoutPattern or
// stderrPattern, a regular expression both Node's output and the guest's must match, instead of exact text.
// The code runs as a plain script: no require, no Node APIs, nothing that differs between Node and GraalJS.
'use strict';

const cases = [];
const add = (name, code, extra = {}) => cases.push({ name, code, ...extra });

// Primitives, at top level and nested.
add('top-level string is printed raw', "console.log('plain text, it\\'s \"raw\"')");
add('several arguments are joined by spaces', "console.log('Total:', 42, 'items', true, null, undefined)");
add('no arguments print an empty line', 'console.log()');
add('numbers including negative zero and non-finite', 'console.log(0, -0, 1.5, -2, 1e21, 1e-7, NaN, Infinity, -Infinity)');
add('negative zero inside an array', 'console.log([0, -0, 0.1 + 0.2])');
add('bigint values', 'console.log(1n, -12345678901234567890n, [2n])');
add('booleans null and undefined nested', 'console.log([true, false, null, undefined])');
add('symbols at top level and nested', "console.log(Symbol('x'), Symbol(), Symbol.iterator, [Symbol.for('k')])");
add('nested string uses single quotes', "console.log(['abc', ''])");
add('nested string with a single quote switches to double quotes', "console.log([\"it's\"])");
add('nested string with both quotes switches to backticks', "console.log(['it\\'s \"x\"'])");
add('nested string with all three quotes escapes single quotes', "console.log(['it\\'s \"x\" `y`'])");
add('nested string with a template placeholder keeps single quotes escaped', "console.log(['it\\'s \"x\" ${y}'])");
add('nested string escapes newline tab and backslash', "console.log(['a\\nb\\tc\\\\d\\re'])");
add('nested string escapes control characters', "console.log(['\\x00\\x01\\x1b[31m\\x7f\\x85\\b\\f\\v'])");
add('nested string escapes lone surrogates but keeps pairs', "console.log(['\\ud83d', 'ok \\ud83d\\ude00', '\\ude00x'])");
add('unicode strings are not escaped', "console.log(['héllo wörld', '日本語', 'emoji 🎉'])");
add('long nested string with newlines is split into lines', "console.log({ text: 'first line of the text\\nsecond line of the text\\nthird line that is long enough to break' })");
add('long nested string without newlines stays whole', "console.log({ text: 'x'.repeat(120) })");
add('string with a newline just short enough to stay whole', "console.dir('a'.repeat(20) + '\\n' + 'b'.repeat(55))");
add('string with a newline just long enough to split', "console.dir('a'.repeat(20) + '\\n' + 'b'.repeat(56))");
add('string longer than maxStringLength is cut', "console.dir('abcdefghij', { maxStringLength: 4 })");
add('one character past maxStringLength', "console.dir(['abcde'], { maxStringLength: 4 })");

// Arrays.
add('empty array', 'console.log([])');
add('short array on one line', "console.log([1, 'two', { three: 3 }, [4]])");
add('array with one hole', 'console.log([1, , 3])');
add('array with several holes', 'console.log([, , 1, , , , 2, , ])');
add('array of only holes', 'console.log(new Array(5))');
add('sparse array with a far index', 'const a = [1]; a[50] = 2; console.log(a)');
add('array of 100 numbers is grouped in columns', 'console.log(Array.from({ length: 100 }, (_, i) => i))');
add('array of 101 numbers shows one more item', 'console.log(Array.from({ length: 101 }, (_, i) => i))');
add('array of 250 numbers shows many more items', 'console.log(Array.from({ length: 250 }, (_, i) => i * 3))');
add('seven short strings are grouped', "console.log(['a', 'b', 'c', 'd', 'e', 'f', 'g'])");
add('alphabet is grouped with padding', "console.log('abcdefghijklmnopqrstuvwxyz'.split(''))");
add('numbers are right aligned in groups', 'console.log([1, 10, 100, 1000, 10000, 100000, 1000000, -5, 42, 7])');
add('mixed values are left aligned in groups', "console.log([1, 'a', 22, 'bb', 333, 'ccc', 4444, 'dddd', true])");
add('squares up to 50', 'console.log(Array.from({ length: 50 }, (_, i) => i * i))');
add('floating point results', 'console.log([1.5, 2.25, 3.125].map((x) => x * 2), [0.1, 0.2, 0.30000000000000004, 1 / 3, 2 / 3, 1e-9, 123456.789])');
add('fibonacci numbers', 'const f = [0, 1]; while (f.length < 40) f.push(f[f.length - 1] + f[f.length - 2]); console.log(f)');
add('array of long words is not grouped when it fits', "console.log(['alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot', 'golf'])");
add('array of very different lengths is not grouped', "console.log(['a', 'b', 'c', 'd', 'e', 'f', 'g'.repeat(60)])");
add('array with extra keys', "const a = [1, 2]; a.total = 3; a[Symbol('tag')] = 'x'; console.log(a)");
add('array with only extra keys', "const a = []; a.note = 'empty'; console.log(a)");
add('nested arrays', 'console.log([[1, 2, [3, 4, [5, [6]]]], []])');
add('matrix of numbers', 'console.log([[1, 2, 3], [4, 5, 6], [7, 8, 9]])');
add('ten by ten matrix', 'console.log(Array.from({ length: 10 }, (_, r) => Array.from({ length: 10 }, (_, c) => r * 10 + c)))');
add('array of objects breaks lines', "console.log([{ id: 1, name: 'Ada Lovelace', email: 'ada@example.com' }, { id: 2, name: 'Alan Turing', email: 'alan@example.com' }])");
add('grouped array with more items than maxArrayLength option', 'console.dir(Array.from({ length: 30 }, (_, i) => i), { maxArrayLength: 10 })');
add('array of 26 short objects', 'console.log(Array.from({ length: 26 }, (_, i) => ({ i })))');
add('array of strings with quotes and newlines', "console.log(['He said \"hi\"\\nand left', \"it's\", 'tab\\there'])");
add('array with getter element', "const a = [1]; Object.defineProperty(a, 1, { get() { return 2; }, enumerable: true }); console.log(a)");

// Plain objects.
add('empty object', 'console.log({})');
add('small object on one line', "console.log({ a: 1, b: 'two', c: [3], d: { e: null } })");
add('keys that are not identifiers are quoted', "console.log({ 'a-b': 1, '1': 2, '$x': 3, 'with space': 4, _ok: 5, \"it's\": 6, '': 7 })");
add('symbol keys', "console.log({ [Symbol('s')]: 1, [Symbol()]: 2, [Symbol.iterator]: 3, plain: 4 })");
add('non-enumerable symbol keys are hidden', "const o = { a: 1 }; Object.defineProperty(o, Symbol('h'), { value: 2 }); console.log(o)");
add('proto key is shown quoted', "console.log(JSON.parse('{\"__proto__\": 1, \"a\": 2}'))");
add('integer-like keys come first', "console.log({ b: 1, 2: 'two', a: 3, 1: 'one' })");
add('nested object within depth', 'console.log({ a: { b: { c: {} } } })');
add('nested object beyond depth', 'console.log({ a: { b: { c: { d: 1 } } }, list: [1, 2, 3] })');
add('nested array beyond depth', 'console.log({ a: { b: { c: [1, 2] } } })');
add('empty containers beyond depth stay visible', 'console.log({ a: { b: { c: {}, d: [], e: new Map() } } })');
add('object too wide for one line', "console.log({ firstName: 'Ada', lastName: 'Lovelace', occupation: 'mathematician', born: 1815, died: 1852 })");
add('object just fitting on one line', "console.log({ a: 'x'.repeat(16), b: 'y'.repeat(16), c: 'z'.repeat(16) })");
add('object one character too wide for one line', "console.log({ a: 'x'.repeat(16), b: 'y'.repeat(16), c: 'z'.repeat(17) })");
add('object with several keys too wide for one line', "console.log({ alpha: 'aaaaaaaaaa', beta: 'bbbbbbbbbb', gamma: 'cccccccccc', delta: 'ddddd' })");
add('nested config object', "console.log({ server: { host: 'localhost', port: 8080, tls: { enabled: false, cert: null } }, database: { url: 'postgres://db:5432/app', pool: { min: 2, max: 10 } }, features: ['auth', 'billing', 'search'], debug: true })");
add('four levels are not combined on one line', 'console.dir({ a: { b: { c: { d: 1 } } } }, { depth: 5 })');
add('three inner levels are combined', 'console.dir({ x: 1, a: { b: { c: { d: 1 } } } }, { depth: null })');
add('word counts object', "const words = 'the quick brown fox jumps over the lazy dog the fox'.split(' '); const counts = {}; for (const w of words) counts[w] = (counts[w] || 0) + 1; console.log(counts)");
add('object with many keys', 'const o = {}; for (let i = 0; i < 30; i++) o[`key${i}`] = i; console.log(o)');
add('object with undefined and null values', 'console.log({ a: undefined, b: null, c: NaN })');
add('object with method and arrow function', 'console.log({ m() {}, f: () => 1, g: function () {}, h: function named() {} })');
add('getters and setters', 'console.log({ get a() { return 1; }, set b(v) {}, get c() { return 1; }, set c(v) {} })');
add('Object.entries result', "console.log(Object.entries({ a: 1, b: 'x', c: [1, 2] }))");
add('object with long string values', "console.log({ id: 'a3f9c2e1-7b4d-4e8a-9c1f-2d3e4f5a6b7c', description: 'A fairly long description of the item that goes on' })");
add('depth option zero', "console.dir({ a: { b: 1 }, c: [1], d: 'x' }, { depth: 0 })");
add('compact false puts every entry on its own line', 'console.dir({ a: 1, b: [1, 2] }, { compact: false })');
add('breakLength Infinity keeps one line', "console.dir({ a: 'x'.repeat(50), b: 'y'.repeat(50) }, { breakLength: Infinity })");
add('breakLength 40 breaks sooner', "console.dir({ a: 'x'.repeat(15), b: 'y'.repeat(15) }, { breakLength: 40 })");

// Circular structures.
add('object referring to itself', 'const o = { name: \'root\' }; o.self = o; console.log(o)');
add('array containing itself', 'const a = [1]; a.push(a); console.log(a)');
add('nested circular reference', "const parent = { name: 'p', children: [] }; parent.children.push({ name: 'c', parent }); console.log(parent)");
add('two separate circular references', 'const a = { n: \'a\' }; const b = { n: \'b\', a }; a.b = b; b.self = b; console.log(a)');
add('shared object that is not circular', 'const s = { v: 1 }; console.log({ x: s, y: s })');
add('circular map', "const m = new Map(); m.set('me', m); console.log(m)");

// Classes, prototypes and tags.
add('class instance', 'class Point { constructor() { this.x = 1; this.y = 2; } } console.log(new Point())');
add('empty class instance', 'class Empty {} console.log(new Empty(), [new Empty()])');
add('class instance nested beyond depth', 'class Node2 { constructor(n) { this.next = n; } } console.log(new Node2(new Node2(new Node2(new Node2(null)))))');
add('subclass instance', 'class A { constructor() { this.a = 1; } } class B extends A { constructor() { super(); this.b = 2; } } console.log(new B())');
add('null prototype object', 'console.log(Object.create(null))');
add('null prototype object with keys', "const o = Object.create(null); o.a = 1; o['b-c'] = 2; console.log(o)");
add('object created from a class prototype', "class Foo {} const o = Object.create(Foo.prototype); o.v = 1; console.log(o)");
add('Symbol.toStringTag from a getter', "class Tagged { get [Symbol.toStringTag]() { return 'Custom'; } } console.log(new Tagged())");
add('Symbol.toStringTag on a plain object', "console.log(Object.defineProperty({ a: 1 }, Symbol.toStringTag, { value: 'Thing' }))");
add('enumerable Symbol.toStringTag is a key', "console.log({ [Symbol.toStringTag]: 'Visible' })");
add('generator object', 'function* gen() { yield 1; } console.log(gen())');
add('arguments object', '(function () { console.log(arguments); })(1, \'a\')');

// Functions and classes.
add('named and anonymous functions', 'function f() {} console.log(f, function () {}, () => {}, [f])');
add('function assigned to a const takes its name', 'const g = () => 1; const h = function () {}; console.log(g, h)');
add('classes', 'class A {} class B extends A {} console.log(A, B, class {}, [B])');
add('class extending a builtin', 'class MyList extends Array {} class MyErr extends Error {} console.log(MyList, MyErr)');
add('async generator and async generator functions', 'async function af() {} function* gf() {} async function* agf() {} console.log(af, gf, agf, async () => {})');
add('bound function', 'function f() {} console.log(f.bind(null))');
add('function with properties', 'function f() {} f.version = 2; f.tags = [\'a\']; console.log(f)');
add('class with static properties', 'class Config { static defaults = { a: 1 }; } console.log(Config)');
add('methods in class instance are not shown', 'class S { constructor() { this.v = 1; } method() {} } console.log(new S(), S.prototype.method)');

add('built-in functions', 'console.log(Math.max, Array, Symbol, parseInt, [].push, Object.prototype.hasOwnProperty)');
add('namespace objects show their tag', 'console.log(Math, JSON, Reflect, [Math])');
add('getter and setter functions are named', "console.log(Object.getOwnPropertyDescriptor({ get a() { return 1; }, set a(v) {} }, 'a'))");
add('method with a symbol name', "console.log({ [Symbol('s')]() {} })");
add('class expressions take their names', 'const C = class {}; const D = class Named {}; console.log(C, D)');
add('class with a comment in its header', 'class /* note */ A {} console.log(A)');
add('static method of a class', 'class A { static make() {} } console.log(A.make, [A])');
add('function whose name was redefined', "console.log(Object.defineProperty(function () {}, 'name', { value: 'custom' }))");
add('array and string iterators', "console.log([1, 2].values(), 'ab'[Symbol.iterator](), [][Symbol.iterator]())");
add('transparent proxies show their target', 'console.log(new Proxy({ a: 1 }, {}), new Proxy([1, 2], {}))');
add('object made from the array prototype', 'console.log(Object.create(Array.prototype))');
add('own constructor property that is not a function', "console.log({ constructor: 'x' })");
add('Intl objects show their tag', "console.log(new Intl.NumberFormat('en-US'), [new Intl.DateTimeFormat('en-US')])");
add('line and paragraph separators are not escaped', "console.log(['a\\u2028b\\u2029c', '\\u00a0'])");
add('null prototype object beyond depth', 'console.log({ a: { b: { c: Object.assign(Object.create(null), { d: 1 }) } } })');

// Map, Set and weak collections.
add('map', "console.log(new Map([['a', 1], ['b', 2]]))");
add('empty map and set', 'console.log(new Map(), new Set())');
add('set', "console.log(new Set([1, 'two', [3]]))");
add('map of arrays', "console.log(new Map([['fruits', ['apple', 'banana', 'cherry']], ['vegetables', ['carrot', 'pea']], ['empty', []]]))");
add('map with object keys', "console.log(new Map([[{ id: 1 }, 'one'], [[1, 2], new Set([3])]]))");
add('long map breaks lines', "const m = new Map(); for (let i = 0; i < 8; i++) m.set('key-' + i, { index: i, label: 'item number ' + i }); console.log(m)");
add('set of 120 numbers', 'console.log(new Set(Array.from({ length: 120 }, (_, i) => i)))');
add('map nested in object beyond depth', "console.log({ a: { b: { m: new Map([['k', 1]]), s: new Set([1]) } } })");
add('map with extra property', "const m = new Map([[1, 2]]); m.label = 'x'; console.log(m)");
add('map subclass', "class Registry extends Map {} console.log(new Registry([['a', 1]]))");
add('weak collections', 'console.log(new WeakMap(), new WeakSet(), [new WeakMap()])');

// Dates, regular expressions, boxed primitives, promises.
add('dates', "console.log(new Date(0), [new Date('2024-03-01T12:34:56.789Z')])");
add('invalid date', "console.log(new Date('nope'), { when: new Date(NaN) })");
add('date with a property', "const d = new Date(0); d.label = 'epoch'; console.log(d)");
add('date subclass', 'class Day extends Date {} console.log(new Day(86400000))');
add('regular expressions', "console.log(/a+b/gi, [new RegExp('a/b', 'm')], { re: /x/y })");
add('regular expression with a property', 'const r = /x/; r.note = 1; console.log(r)');
add('boxed primitives', "console.log(new Number(3), new Number(-0), new String('x'), new Boolean(false), Object(1n), Object(Symbol('s')))");
add('boxed string with a property', "const s = new String('ab'); s.extra = 1; console.log(s, [new String(\"it's\")])");
add('pending promise', 'console.log(new Promise(() => {}), { p: new Promise(() => {}) })');

// Typed arrays and buffers.
add('typed arrays', 'console.log(Uint8Array.of(1, 2, 3), new Float64Array([1.5, -0]), new Int16Array(0))');
add('bigint typed array', 'console.log(BigInt64Array.of(1n, -2n), new BigUint64Array(2))');
add('large typed array is grouped and cut', 'console.log(new Uint8Array(120).map((_, i) => i * 2))');
add('array buffer', 'console.log(new Uint8Array([1, 2, 255]).buffer, new ArrayBuffer(0))');
add('large array buffer is cut', 'console.log(new ArrayBuffer(130))');
add('data view', 'console.log(new DataView(new ArrayBuffer(2)))');
add('typed array with extra key', 'const t = new Uint8Array(2); t.note = \'n\'; console.log(t)');

// Errors (their real stack frames differ between Node and GraalJS, so these set err.stack to fixed text).
const fakeStack = (msg) => `'${msg}\\n    at main (/app/main.js:3:9)\\n    at run (/app/main.js:10:1)'`;
add('error with a fixed stack', `const e = new Error('boom'); e.stack = ${fakeStack('Error: boom')}; console.error(e)`);
add('error with extra properties', `const e = new Error('boom'); e.stack = ${fakeStack('Error: boom')}; e.code = 'E_BOOM'; e.status = 500; console.error(e)`);
add('error without a stack is bracketed', "const e = new Error('boom'); e.stack = ''; console.log(e, [e])");
add('error without a stack with a code', "const e = new RangeError('too big'); e.stack = undefined; e.code = 'E_RANGE'; console.log(e)");
add('error nested in an object', `const e = new TypeError('bad input'); e.stack = ${fakeStack('TypeError: bad input')}; console.log({ ok: false, error: e })`);
add('error in an array with a code', `const e = new Error('x'); e.stack = ${fakeStack('Error: x')}; e.code = 'E'; console.log([e])`);
add('error with a cause', `const inner = new Error('inner'); inner.stack = ${fakeStack('Error: inner')}; const e = new Error('outer', { cause: inner }); e.stack = ${fakeStack('Error: outer')}; console.log(e)`);
add('error with a primitive cause', "const e = new Error('outer', { cause: 'disk full' }); e.stack = 'Error: outer\\n    at x (y.js:1:1)'; console.log(e)");
add('error subclass without a name', `class ValidationError extends Error {} const e = new ValidationError('bad'); e.stack = ${fakeStack('Error: bad')}; console.log(e)`);
add('error subclass whose name does not end in Error', "class Oops extends Error {} const e = new Oops('bad'); e.stack = 'Error: bad\\n    at x (y.js:1:1)'; console.log(e)");
add('error subclass with its own name', `class HttpError extends Error { constructor(m) { super(m); this.name = 'HttpError'; this.status = 404; } } const e = new HttpError('not found'); e.stack = ${fakeStack('HttpError: not found')}; console.log(e)`);
add('error with a changed name', `const e = new Error('m'); e.name = 'CustomError'; e.stack = ${fakeStack('CustomError: m')}; console.log(e)`);
add('aggregate error', "const e = new AggregateError([new Error('a')], 'many'); e.stack = 'AggregateError: many\\n    at x (y.js:1:1)'; e.errors[0].stack = 'Error: a\\n    at z (y.js:2:2)'; console.log(e)");
add('error message and string form', "const e = new TypeError('bad thing'); console.error(e.message); console.error(String(e)); console.log(`${e.name}: ${e.message}`)");
add('error with a real stack', "console.error(new Error('real'))", { stderrPattern: '^Error: real\\n(    at .*\\n)+$' });
add('thrown error caught and printed', "try { null.x; } catch (e) { console.log(e.name, e instanceof TypeError); }");

// Custom inspection.
add('custom inspect returning a string', "console.log({ [Symbol.for('nodejs.util.inspect.custom')]() { return 'CUSTOM!'; } })");
add('custom inspect returning an object', "class Money { constructor(v) { this.v = v; } [Symbol.for('nodejs.util.inspect.custom')]() { return { amount: this.v, currency: 'EUR' }; } } console.log([new Money(5)])");
add('custom inspect gets the remaining depth', "const c = { [Symbol.for('nodejs.util.inspect.custom')](depth) { return 'depth=' + depth; } }; console.log(c, { a: { b: c } })");
add('custom inspect string is indented when nested', "const c = { [Symbol.for('nodejs.util.inspect.custom')]() { return 'line1\\nline2'; } }; console.log({ a: { b: c } })");
add('console.dir ignores custom inspect', "console.dir({ [Symbol.for('nodejs.util.inspect.custom')]() { return 'nope'; }, a: 1 })");

// util.format substitutions.
add('format %s with strings and numbers', "console.log('%s is %s years old', 'Ada', 36)");
add('format %s with objects', "console.log('%s|%s|%s|%s', { a: { b: { c: 1 } } }, [1, [2, [3]]], null, undefined)");
add('format %s with a custom toString', "console.log('%s', { toString() { return 'T!'; } })");
add('format %s with bigint symbol and negative zero', "console.log('%s %s %s', 5n, Symbol('q'), -0)");
add('format %s with an error', "const e = new Error('m'); e.stack = 'Error: m\\n    at x (y.js:1:1)'; console.log('got %s', e)");
add('format %d', "console.log('%d %d %d %d %d', 42, '7', 1.5, 5n, {})");
add('format %i', "console.log('%i %i %i %i', 42.9, '-3.7x', 9n, 'abc')");
add('format %f', "console.log('%f %f %f', '3.25', 1, 'x')");
add('format %j', "const c = {}; c.c = c; console.log('%j %j %j', { a: [1, 'x'] }, 'str', c)");
add('format %j of undefined', "console.log('%j', undefined)");
add('format %o', "console.log('%o', [1, 2])");
add('format %O', "console.log('%O', { a: { b: { c: { d: 1 } } } })");
add('format %c is dropped', "console.log('%cred%c plain', 'color: red', '', 'extra')");
add('format %% and unknown placeholders', "console.log('100%% sure, %x %', 1)");
add('single argument %% is kept', "console.log('100%%')");
add('missing arguments leave placeholders', "console.log('%s and %s and %d', 'one')");
add('extra arguments are appended', "console.log('%s:', 'key', 'value', { n: 1 }, [2])");
add('first argument not a string is inspected', "console.log(5, '%s', 'x')");
add('placeholder at the end of the string', "console.log('value %', 3)");

// Console methods.
add('info and debug write to stdout', "console.info('info', 1); console.debug('debug', { a: 1 })");
add('error and warn write to stderr', "console.error('bad', { code: 1 }); console.warn('careful')");
add('assert that fails with a message', "console.assert(1 === 2, 'math %s', 'broke')");
add('assert that fails without a message', 'console.assert(false)');
add('assert that fails with an object', 'console.assert(false, { a: 1 })');
add('assert that passes prints nothing', "console.assert(true, 'never')");
add('count and countReset', "console.count(); console.count(); console.count('x'); console.countReset(); console.count(); console.count('x')");
add('dir with options', "console.dir({ a: { b: { c: { d: {} } } } }, { depth: 0 }); console.dir('str'); console.dir([1, 2], { depth: null })");
add('group indents each line', "console.group('Outer'); console.log('inside'); console.group(); console.log({ a: 1, b: 'two\\nlines' }); console.error('err inside'); console.groupEnd(); console.log('back'); console.groupEnd(); console.log('out')");
add('groupCollapsed with several labels', "console.groupCollapsed('a', 1); console.log([1, 2, 3, 4, 5, 6, 7, 8].map(String)); console.groupEnd(); console.groupEnd(); console.log('done')");
add('group indents multi-line objects', "console.group('G'); console.log({ firstName: 'Ada', lastName: 'Lovelace', occupation: 'mathematician', born: 1815, died: 1852 }); console.groupEnd()");
add('trace prints a stack to stderr', "console.trace('here %d', 1)", { stderrPattern: '^Trace: here 1\\n(    at .*\\n)+$' });
add('time and timeEnd', "console.time('load'); console.timeEnd('load')", { stdoutPattern: '^load: \\d+(\\.\\d+)?ms\\n$' });
add('timeLog with data', "console.time(); console.timeLog(undefined, 'step', { n: 1 }); console.timeEnd()", { stdoutPattern: '^default: \\d+(\\.\\d+)?ms step \\{ n: 1 \\}\\ndefault: \\d+(\\.\\d+)?ms\\n$' });

// console.table.
add('table of an array of records', "console.table([{ id: 1, name: 'Ada', admin: true }, { id: 2, name: 'Alan', tags: ['x', 'y'] }])");
add('table of an object of objects', 'console.table({ r1: { a: 1 }, r2: { b: 2 }, r3: { a: 3, b: 4 } })');
add('table of primitives', "console.table([1, 'two', { a: 3 }, null])");
add('table with chosen columns', "console.table([{ a: 1, b: 2, c: 3 }, { a: 4, b: 5 }], ['a', 'c'])");
add('table of a map', "console.table(new Map([['k', { a: 1 }], ['m', [1, 2, 3, 4]]]))");
add('table of a set', "console.table(new Set(['x', 42]))");
add('table of nested values', "console.table([{ obj: { a: 1, b: 2 }, big: { a: 1, b: 2, c: 3 }, arr: [1, 2, 3, 4, 5] }])");
add('table of a non-object logs it', "console.table(5); console.table('text')");
add('table of arrays', 'console.table([[1, 2], [3, 4, 5]])');
add('table with wide characters', "console.table([{ name: '日本', v: 1 }])");

add('empty table', 'console.table([])');
add('table of an object of primitives', "console.table({ a: 1, b: 'x' })");
add('table of records keyed by name', "console.table({ alice: { age: 31, city: 'Oslo' }, bob: { age: 27, city: 'Lima' } })");

// More of console.
add('count with a number label', 'console.count(1); console.count(1); console.count()');
add('groupEnd without a group', "console.groupEnd(); console.log('x')");
add('nested groups on stderr', "console.group('a'); console.group('b'); console.warn({ deep: [1, 2] }); console.groupEnd(); console.groupEnd()");
add('dir with showHidden', 'console.dir([1], { showHidden: true })');
add('sorted keys option', "console.dir({ b: 1, a: 2, c: { z: 1, y: 2 } }, { sorted: true })");
add('error with format placeholders', "console.error('Error: %s (code %d)', 'oops', 42)");
add('warn an object too wide for one line', "console.warn({ level: 'warning', message: 'disk space is running low', freeBytes: 123456789 })");
add('assert with a %o placeholder', "console.assert(false, 'got %o', [1])");
add('trace without a message', 'console.trace()', { stderrPattern: '^Trace\\n(    at .*\\n)+$' });
add('trace inside a group', "console.group('g'); console.trace('t')", { stdoutPattern: '^g\\n$', stderrPattern: '^  Trace: t\\n(      at .*\\n)+$' });
add('format %s of a class instance', "console.log('%s', new (class P { constructor() { this.x = 1; } })())");
add('format %s of a class with its own toString', "class Temp { constructor(c) { this.c = c; } toString() { return this.c + 'C'; } } console.log('%s', new Temp(21))");
add('percent signs without placeholders', "console.log('50%'); console.log('%s%', 50); console.log('a', '%s')");
add('small and large numbers', 'console.log(0.000001, 1e-7, 123e20, 2 ** 53, -1e-7, 5e-324, [0.1, 100, 1e100])');
add('keys that look like numbers', "console.log({ '-1': 'a', 1.5: 'b', 10: 'c', 2: 'd', '007': 'e' })");
add('nested empty structures', 'console.log([[], {}, [[]], { a: {} }, new Set(), new Map()])');
add('set of twenty words', "console.log(new Set('lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor incididunt ut labore et dolore magna aliqua enim'.split(' ')))");
add('typed array view of part of a buffer', 'console.log(new Uint8Array([1, 2, 3, 4]).subarray(1, 3), new Int32Array(new ArrayBuffer(16), 4, 2))');
add('missing property is undefined', "const o = {}; console.log(o.missing, typeof o.missing, [o.missing])");
add('error with a multi-line message', "const e = new Error('line one\\nline two'); e.stack = 'Error: line one\\nline two\\n    at x (y.js:1:1)'; console.log(e); console.log({ e })");
add('error with a code beyond depth', "const e = new Error('x'); e.code = 1; console.log({ a: { b: { c: e } } })");
add('error with a name own property and no stack', "const e = new Error('m'); e.name = 'MyError'; e.stack = ''; console.log(e)");
add('error in map values', "const e = new Error('x'); e.stack = 'Error: x\\n    at y (z.js:1:1)'; console.log(new Map([['job-1', e]]))");
add('error sharing frames with its cause', "const frames = '\\n    at a (x.js:1:1)\\n    at b (x.js:2:1)\\n    at c (x.js:3:1)\\n    at d (x.js:4:1)\\n    at e (x.js:5:1)'; const inner = new Error('inner'); inner.stack = 'Error: inner\\n    at z (x.js:9:1)' + frames; const outer = new Error('outer', { cause: inner }); outer.stack = 'Error: outer\\n    at y (x.js:8:1)' + frames; console.log(outer)");

// Realistic agent output.
add('list of file paths', "console.log(['src/index.js', 'src/util/format.js', 'src/util/parse.js', 'test/format.test.js', 'test/parse.test.js', 'package.json', 'README.md', 'LICENSE'])");
add('csv rows parsed into arrays', "const csv = 'name,age,city\\nAda,36,London\\nAlan,41,Wilmslow\\nGrace,85,Arlington'; const rows = csv.split('\\n').map((line) => line.split(',')); console.log(rows); const [head, ...body] = rows; console.log(body.map((r) => Object.fromEntries(r.map((v, i) => [head[i], isNaN(v) ? v : Number(v)]))))");
add('histogram of letters', "const counts = new Map(); for (const ch of 'mississippi') counts.set(ch, (counts.get(ch) || 0) + 1); console.log(counts); console.log([...counts].sort((a, b) => b[1] - a[1]))");
add('boolean flags and sums', 'const xs = Array.from({ length: 12 }, (_, i) => i % 3 === 0); console.log(xs, xs.filter(Boolean).length)');
add('sorted leaderboard', "const scores = { ada: 92, alan: 87, grace: 95, linus: 78, margaret: 99, dennis: 85, barbara: 90 }; console.log(Object.entries(scores).sort((a, b) => b[1] - a[1]).slice(0, 5))");
add('nested arrays of numbers from a computation', 'console.log(Array.from({ length: 4 }, (_, i) => Array.from({ length: 12 }, (_, j) => (i + 1) * (j + 1))))');
add('result object with a summary and items', "console.log({ ok: true, summary: { total: 3, passed: 2, failed: 1 }, failures: [{ test: 'parses dates', error: 'Expected 2024-01-01 but got 2023-12-31' }] })");
add('records after filtering and mapping', "const items = [{ sku: 'A1', price: 9.99, qty: 3 }, { sku: 'B2', price: 24.5, qty: 0 }, { sku: 'C3', price: 3, qty: 12 }]; const inStock = items.filter((i) => i.qty > 0).map((i) => ({ ...i, total: +(i.price * i.qty).toFixed(2) })); console.log(inStock); console.log('Grand total:', inStock.reduce((s, i) => s + i.total, 0))");
add('JSON.stringify output is printed raw', "console.log(JSON.stringify({ a: 1, b: [1, 2], c: { d: 'x' } }, null, 2))");
add('statistics summary', "const xs = [3, 1, 4, 1, 5, 9, 2, 6]; const mean = xs.reduce((a, b) => a + b) / xs.length; console.log({ count: xs.length, mean, min: Math.min(...xs), max: Math.max(...xs), sorted: [...xs].sort((a, b) => a - b) })");
add('grouped records by key', "const people = [{ n: 'a', team: 'red' }, { n: 'b', team: 'blue' }, { n: 'c', team: 'red' }]; const byTeam = {}; for (const p of people) (byTeam[p.team] ??= []).push(p.n); console.log(byTeam); console.log(new Map(Object.entries(byTeam)))");
add('api response shaped object', "console.log({ status: 200, headers: { 'content-type': 'application/json', 'x-request-id': 'abc123' }, body: { data: [{ id: 1, attributes: { title: 'Hello', tags: ['a', 'b'] } }], meta: { page: 1, total: 1 } } })");
add('primes below 200', 'const p = []; for (let n = 2; n < 200; n++) if (p.every((d) => n % d)) p.push(n); console.log(p.length, p)');
add('strings with quotes and newlines in a record', "console.log({ quote: 'She said \"it\\'s fine\"', multi: 'line1\\nline2', path: 'C:\\\\temp\\\\file.txt' })");
add('deeply nested tree', "const tree = { value: 1, children: [{ value: 2, children: [{ value: 3, children: [] }] }] }; console.log(tree); console.log(JSON.stringify(tree))");
add('nested arrays of records with dates', "console.log({ events: [{ at: new Date(Date.UTC(2024, 0, 2)), kind: 'login' }, { at: new Date(Date.UTC(2024, 0, 3)), kind: 'logout' }] })");
add('labelled values on one line', "const x = 3, y = [1, 2]; console.log('x =', x, 'y =', y, 'sum =', x + y.length)");
add('progress lines', "for (let i = 1; i <= 3; i++) console.log(`step ${i}/3 done (${(i / 3 * 100).toFixed(1)}%)`)");

module.exports = cases;
