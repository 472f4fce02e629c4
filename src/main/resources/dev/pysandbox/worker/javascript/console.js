// The guest's console: prints what Node's console prints, byte for byte, so that agents who know Node read
// familiar output. Written from Node's documented and observed behaviour (util.inspect, util.format, Console),
// checked against real Node by NodeConsoleFormatTest. Plain ES2024: no modules, no Node or host APIs.
//
// The script's completion value is { inspect, format, makeConsole }:
//   inspect(value, options)      like util.inspect, with Node's defaults
//   format(...args)              like util.format
//   makeConsole(writeOut, writeErr) a console whose writers each receive the whole text of one call, "\n"-ended
(function () {
  'use strict';

  const customInspect = Symbol.for('nodejs.util.inspect.custom');
  const defaults = {
    depth: 2, compact: 3, breakLength: 80, maxArrayLength: 100, maxStringLength: 10000,
    customInspect: true, showHidden: false, sorted: false,
  };
  const hasOwn = (object, key) => Object.prototype.hasOwnProperty.call(object, key);
  const isEnumerable = (object, key) => Object.prototype.propertyIsEnumerable.call(object, key);
  const plural = (count, word) => `${count} ${word}${count > 1 ? 's' : ''}`;
  const moreItems = (count) => `... ${plural(count, 'more item')}`;

  // ---------------------------------------------------------------- what kind of object is it
  // A brand check calls a built-in method that throws on anything but its own kind, so subclasses and
  // spoofed Symbol.toStringTag are seen through as Node sees through them. Exceptions are slow in an
  // interpreter, so a check runs only when the toString tag or the prototype chain hints at its kind, or
  // when there is no prototype chain to go by.
  const classOf = (value) => {
    try { return Object.prototype.toString.call(value).slice(8, -1); } catch { return ''; }
  };
  const inherits = (value, proto) => Object.prototype.isPrototypeOf.call(proto, value);
  const getterOf = (proto, name) => Object.getOwnPropertyDescriptor(proto, name).get;
  function brandCheck(name, proto, check) {
    return (value) => {
      const hinted = classOf(value) === name || inherits(value, proto) || Object.getPrototypeOf(value) === null;
      if (!hinted) return false;
      try { check(value); return true; } catch { return false; }
    };
  }
  const typedArrayProto = Object.getPrototypeOf(Uint8Array.prototype);
  const typedArrayName = (value) => getterOf(typedArrayProto, Symbol.toStringTag).call(value);
  const typedArrayLength = (value) => getterOf(typedArrayProto, 'length').call(value);
  const setSize = getterOf(Set.prototype, 'size');
  const mapSize = getterOf(Map.prototype, 'size');
  const isSet = brandCheck('Set', Set.prototype, (v) => setSize.call(v));
  const isMap = brandCheck('Map', Map.prototype, (v) => mapSize.call(v));
  const isWeakMap = brandCheck('WeakMap', WeakMap.prototype, (v) => WeakMap.prototype.has.call(v, {}));
  const isWeakSet = brandCheck('WeakSet', WeakSet.prototype, (v) => WeakSet.prototype.has.call(v, {}));
  const isDate = brandCheck('Date', Date.prototype, (v) => Date.prototype.getTime.call(v));
  const isRegExp = brandCheck('RegExp', RegExp.prototype, (v) => getterOf(RegExp.prototype, 'source').call(v));
  const hasByteLength = (Kind) => brandCheck(Kind.name, Kind.prototype,
    (v) => getterOf(Kind.prototype, 'byteLength').call(v));
  const isArrayBuffer = hasByteLength(ArrayBuffer);
  const isSharedArrayBuffer = typeof SharedArrayBuffer === 'function' ? hasByteLength(SharedArrayBuffer) : () => false;
  const isDataView = hasByteLength(DataView);
  const isError = (value) => classOf(value) === 'Error' || value instanceof Error;
  const isPromise = (value) => value instanceof Promise; // no side-effect-free brand check exists
  const boxedTypes = [Number, String, Boolean, BigInt, Symbol]
    .map(({ name, prototype }) => ({ name, proto: prototype }));
  function unbox(value) {
    const name = classOf(value);
    for (const type of boxedTypes) {
      if (name !== type.name && !inherits(value, type.proto) && Object.getPrototypeOf(value) !== null) continue;
      try { return { type: type.name, primitive: type.proto.valueOf.call(value) }; } catch { /* not this type */ }
    }
    return undefined;
  }
  const functionKinds = new Map([
    [Object.getPrototypeOf(async function () {}), 'AsyncFunction'],
    [Object.getPrototypeOf(function* () {}), 'GeneratorFunction'],
    [Object.getPrototypeOf(async function* () {}), 'AsyncGeneratorFunction'],
  ]);

  // ---------------------------------------------------------------- primitives
  const escapes = ['\\x00', '\\x01', '\\x02', '\\x03', '\\x04', '\\x05', '\\x06', '\\x07', '\\b', '\\t', '\\n',
    '\\x0B', '\\f', '\\r'];
  function escapeCharacter(code) {
    if (code < escapes.length) return escapes[code];
    if (code === 0x27) return "\\'";
    if (code === 0x5c) return '\\\\';
    const hex = code.toString(16);
    return code < 0x100 ? `\\x${hex.toUpperCase().padStart(2, '0')}` : `\\u${hex}`;
  }

  // Characters a quoted string escapes: controls, backslash, lone surrogates, and the quote when it is '.
  const loneSurrogate = String.raw`[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]`;
  const escapedInSingleQuotes = new RegExp(String.raw`[\x00-\x1f\x27\x5c\x7f-\x9f]|${loneSurrogate}`, 'g');
  const escapedInOtherQuotes = new RegExp(String.raw`[\x00-\x1f\x5c\x7f-\x9f]|${loneSurrogate}`, 'g');

  // Quotes a string the way Node does: single quotes unless the text holds one, then double quotes, then
  // backticks (unless it also holds ` or ${), else single quotes with \' escaped.
  function quote(text) {
    let mark = "'";
    if (text.includes("'")) {
      if (!text.includes('"')) mark = '"';
      else if (!text.includes('`') && !text.includes('${')) mark = '`';
    }
    const escaped = mark === "'" ? escapedInSingleQuotes : escapedInOtherQuotes;
    return mark + text.replace(escaped, (c) => escapeCharacter(c.charCodeAt(0))) + mark;
  }

  const formatNumber = (n) => (Object.is(n, -0) ? '-0' : `${n}`);

  function formatPrimitive(ctx, value) {
    switch (typeof value) {
      case 'string': return formatString(ctx, value);
      case 'number': return formatNumber(value);
      case 'bigint': return `${value}n`;
      case 'symbol': return Symbol.prototype.toString.call(value);
      default: return `${value}`;
    }
  }

  function formatString(ctx, value) {
    let trailer = '';
    if (value.length > ctx.maxStringLength) {
      trailer = `... ${plural(value.length - ctx.maxStringLength, 'more character')}`;
      value = value.slice(0, ctx.maxStringLength);
    }
    // A long string that would pass the line end is shown as one quoted piece per line, joined with +.
    if (ctx.compact !== true && value.length > 16 && value.length > ctx.breakLength - ctx.indentationLvl - 4) {
      const lines = value.split(/(?<=\n)/);
      return lines.map(quote).join(` +\n${' '.repeat(ctx.indentationLvl + 2)}`) + trailer;
    }
    return quote(value) + trailer;
  }

  // ---------------------------------------------------------------- names and prefixes
  // The name of the nearest constructor on the prototype chain that the value is an instance of; null for
  // objects without a prototype.
  function constructorNameOf(ctx, value) {
    let proto = value;
    let firstProto;
    while (proto !== null && proto !== undefined) {
      const descriptor = Object.getOwnPropertyDescriptor(proto, 'constructor');
      if (descriptor !== undefined && typeof descriptor.value === 'function' && descriptor.value.name !== ''
          && isInstance(value, descriptor.value)) {
        return String(descriptor.value.name);
      }
      proto = Object.getPrototypeOf(proto);
      if (firstProto === undefined) firstProto = proto;
    }
    if (firstProto === null) return null;
    // A chain without a named constructor, e.g. Object.create(Object.create(null)): name the prototype.
    const builtin = Array.isArray(value) ? 'Array' : typeof value === 'function' ? 'Function' : 'Object';
    const protoName = constructorNameOf(ctx, firstProto);
    return `${builtin} <${protoName ?? inspect(firstProto, { ...ctx, depth: -1, customInspect: false })}>`;
  }

  function isInstance(value, constructor) {
    try { return value instanceof constructor; } catch { return false; }
  }

  // Symbol.toStringTag, shown only when it is not an own enumerable key (then it is shown as a key instead).
  function toStringTagOf(ctx, value) {
    const tag = value[Symbol.toStringTag];
    if (typeof tag !== 'string' || tag === '') return '';
    const shownAsKey = ctx.showHidden ? hasOwn(value, Symbol.toStringTag) : isEnumerable(value, Symbol.toStringTag);
    return shownAsKey ? '' : tag;
  }

  // "Foo ", "Foo [Tag] ", "Map(2) ", "[Object: null prototype] ": what goes before the braces.
  function prefixOf(constructor, tag, fallback, size = '') {
    if (constructor === null) {
      const tagPart = tag !== '' && tag !== fallback ? ` [${tag}]` : '';
      return `[${fallback}${size}: null prototype]${tagPart} `;
    }
    return tag !== '' && tag !== constructor ? `${constructor}${size} [${tag}] ` : `${constructor}${size} `;
  }

  // ---------------------------------------------------------------- values
  function formatValue(ctx, value, recurseTimes) {
    if ((typeof value !== 'object' && typeof value !== 'function') || value === null) {
      return value === null ? 'null' : formatPrimitive(ctx, value);
    }
    if (ctx.customInspect) {
      const custom = value[customInspect];
      if (typeof custom === 'function' && custom !== inspect
          && !(value.constructor && value.constructor.prototype === value)) {
        const result = custom.call(value, ctx.depth - recurseTimes, userOptions(ctx), inspect);
        if (result !== value) {
          if (typeof result !== 'string') return formatValue(ctx, result, recurseTimes);
          return result.replaceAll('\n', `\n${' '.repeat(ctx.indentationLvl)}`);
        }
      }
    }
    if (ctx.seen.includes(value)) {
      if (!ctx.circular.has(value)) ctx.circular.set(value, ctx.circular.size + 1);
      return `[Circular *${ctx.circular.get(value)}]`;
    }
    return formatObject(ctx, value, recurseTimes);
  }

  function userOptions(ctx) {
    const options = { stylize: (text) => text };
    for (const key of Object.keys(defaults)) options[key] = ctx[key];
    return options;
  }

  function formatObject(ctx, value, recurseTimes) {
    const constructor = constructorNameOf(ctx, value);
    const tag = toStringTagOf(ctx, value);
    const shape = shapeOf(ctx, value, constructor, tag);
    if (typeof shape === 'string') return shape;
    if (recurseTimes > ctx.depth) {
      const name = prefixOf(constructor, tag, 'Object').slice(0, -1);
      return constructor === null ? name : `[${name}]`;
    }
    const level = recurseTimes + 1;
    ctx.seen.push(value);
    ctx.currentDepth = level;
    const output = shape.entries ? shape.entries(level) : [];
    for (const key of shape.keys) {
      output.push(formatProperty(ctx, value, level, key, shape.isArrayLike ? 'array-extra' : 'object'));
    }
    ctx.seen.pop();
    if (ctx.sorted) sortEntries(ctx, output, shape);
    let base = shape.base ?? '';
    if (ctx.circular.has(value)) {
      const reference = `<ref *${ctx.circular.get(value)}>`;
      base = base === '' ? reference : `${reference} ${base}`;
    }
    return joinEntries(ctx, output, base, shape.braces, shape.isArrayLike, level, value);
  }

  function sortEntries(ctx, output, shape) {
    const comparator = ctx.sorted === true ? undefined : ctx.sorted;
    if (!shape.isArrayLike) {
      output.sort(comparator);
    } else if (shape.keys.length > 1) {
      const extras = output.splice(output.length - shape.keys.length).sort(comparator);
      output.push(...extras);
    }
  }

  // Decides how an object is shown. Returns a finished string for values shown without entries, or
  // { base, braces, keys, entries(level), isArrayLike } where keys are the own properties to list after
  // the entries the kind itself contributes (array items, map pairs, ...).
  function shapeOf(ctx, value, constructor, tag) {
    if (Array.isArray(value)) {
      const keys = ownKeys(ctx, value, true);
      const isPlain = constructor === 'Array' && tag === '';
      const prefix = isPlain ? '' : prefixOf(constructor, tag, 'Array', `(${value.length})`);
      if (value.length === 0 && keys.length === 0) return `${prefix}[]`;
      const entries = (level) => arrayEntries(ctx, value, level);
      return { braces: [`${prefix}[`, ']'], keys, isArrayLike: true, entries };
    }
    if (isSet(value) || isMap(value)) {
      const keys = ownKeys(ctx, value);
      const isAMap = isMap(value);
      const size = isAMap ? mapSize.call(value) : setSize.call(value);
      const prefix = prefixOf(constructor, tag, isAMap ? 'Map' : 'Set', `(${size})`);
      if (size === 0 && keys.length === 0) return `${prefix}{}`;
      const entries = isAMap ? mapEntries : setEntries;
      return { braces: [`${prefix}{`, '}'], keys, entries: (level) => entries(ctx, value, size, level) };
    }
    const typedName = typedArrayName(value);
    if (typedName !== undefined) {
      const keys = ownKeys(ctx, value, true);
      const length = typedArrayLength(value);
      const prefix = prefixOf(constructor, tag, typedName, `(${length})`);
      if (length === 0 && keys.length === 0) return `${prefix}[]`;
      return { braces: [`${prefix}[`, ']'], keys, isArrayLike: true, entries: () => typedArrayEntries(ctx, value) };
    }
    const keys = ownKeys(ctx, value);
    const inBraces = (fallback, entries) => ({ braces: [`${prefixOf(constructor, tag, fallback)}{`, '}'], keys,
      entries });
    if (constructor === 'Object') {
      let open = '{';
      if (classOf(value) === 'Arguments') open = '[Arguments] {';
      else if (tag !== '') open = `${prefixOf(constructor, tag, 'Object')}{`;
      if (keys.length === 0) return `${open}}`;
      return { braces: [open, '}'], keys };
    }
    if (typeof value === 'function') {
      const base = functionBase(value, constructor, tag);
      return keys.length === 0 ? base : { base, braces: ['{', '}'], keys };
    }
    if (isRegExp(value)) {
      const prefix = prefixOf(constructor, tag, 'RegExp');
      let base = RegExp.prototype.toString.call(constructor !== null ? value : new RegExp(value));
      if (prefix !== 'RegExp ') base = prefix + base;
      return keys.length === 0 ? base : { base, braces: ['{', '}'], keys };
    }
    if (isDate(value)) {
      const prefix = prefixOf(constructor, tag, 'Date');
      let base = Number.isNaN(Date.prototype.getTime.call(value))
        ? Date.prototype.toString.call(value) : Date.prototype.toISOString.call(value);
      if (prefix !== 'Date ') base = prefix + base;
      return keys.length === 0 ? base : { base, braces: ['{', '}'], keys };
    }
    if (isError(value)) {
      const base = formatError(ctx, value, constructor, tag, keys);
      return keys.length === 0 ? base : { base, braces: ['{', '}'], keys };
    }
    if (isArrayBuffer(value) || isSharedArrayBuffer(value)) {
      keys.unshift('byteLength');
      const name = isArrayBuffer(value) ? 'ArrayBuffer' : 'SharedArrayBuffer';
      return inBraces(name, () => [`[Uint8Contents]: <${hexBytes(ctx, value)}>`]);
    }
    if (isDataView(value)) {
      keys.unshift('byteLength', 'byteOffset', 'buffer');
      return inBraces('DataView');
    }
    // A guest script cannot see a promise's state, so every promise is shown as Node shows a pending one.
    if (isPromise(value)) return inBraces('Promise', () => ['<pending>']);
    if (isWeakSet(value)) return inBraces('WeakSet', () => ['<items unknown>']);
    if (isWeakMap(value)) return inBraces('WeakMap', () => ['<items unknown>']);
    const boxed = unbox(value);
    if (boxed !== undefined) {
      const base = boxedBase(ctx, boxed, constructor, tag, keys);
      return keys.length === 0 ? base : { base, braces: ['{', '}'], keys };
    }
    if (keys.length === 0) return `${prefixOf(constructor, tag, 'Object')}{}`;
    return inBraces('Object');
  }

  // Own enumerable keys, then own enumerable symbols (with showHidden: all of them); array indices left out
  // when the kind lists its items itself.
  function ownKeys(ctx, value, skipIndices = false) {
    let keys;
    if (skipIndices) {
      // Object.keys of a big array is slow in GraalJS; getOwnPropertyNames is not, and lists indices first.
      const names = Object.getOwnPropertyNames(value);
      keys = names.slice(countIndices(names));
      if (!ctx.showHidden) keys = keys.filter((key) => isEnumerable(value, key));
    } else {
      keys = ctx.showHidden ? Object.getOwnPropertyNames(value) : Object.keys(value);
    }
    for (const symbol of Object.getOwnPropertySymbols(value)) {
      if (ctx.showHidden || isEnumerable(value, symbol)) keys.push(symbol);
    }
    return keys;
  }

  const isIndex = (key) => `${Number(key) >>> 0}` === key && key !== '4294967295';

  // How many array indices lead a list of own property names (they always come first, in ascending order).
  function countIndices(names) {
    let low = 0;
    let high = names.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (isIndex(names[middle])) low = middle + 1;
      else high = middle;
    }
    return low;
  }

  function functionBase(fn, constructor, tag) {
    const source = Function.prototype.toString.call(fn);
    if (/^class(?=[\s{])(?!\s*\()/.test(source) && source.endsWith('}')) return classBase(fn, constructor, tag);
    const type = functionKinds.get(Object.getPrototypeOf(fn)) ?? 'Function';
    let base = `[${type}`;
    if (constructor === null) base += ' (null prototype)';
    base += fn.name === '' ? ' (anonymous)]' : `: ${fn.name}]`;
    if (constructor !== type && constructor !== null) base += ` ${constructor}`;
    if (tag !== '' && constructor !== tag) base += ` [${tag}]`;
    return base;
  }

  function classBase(fn, constructor, tag) {
    let base = `class ${(hasOwn(fn, 'name') && fn.name) || '(anonymous)'}`;
    if (constructor !== 'Function' && constructor !== null) base += ` [${constructor}]`;
    if (tag !== '' && constructor !== tag) base += ` [${tag}]`;
    if (constructor === null) {
      base += ' extends [null prototype]';
    } else {
      const superName = Object.getPrototypeOf(fn).name;
      if (superName) base += ` extends ${superName}`;
    }
    return `[${base}]`;
  }

  function boxedBase(ctx, { type, primitive }, constructor, tag, keys) {
    if (type === 'String') keys.splice(0, primitive.length); // the characters' index keys
    let base = `[${type}`;
    if (type !== constructor) base += constructor === null ? ' (null prototype)' : ` (${constructor})`;
    base += `: ${formatPrimitive(ctx, primitive)}]`;
    if (tag !== '' && tag !== constructor) base += ` [${tag}]`;
    return base;
  }

  // ---------------------------------------------------------------- entries of each kind
  // One entry per item, a run of holes shown as "<n empty items>", at most maxArrayLength entries.
  function arrayEntries(ctx, array, level) {
    const length = array.length;
    const limit = Math.min(Math.max(0, ctx.maxArrayLength), length);
    const output = [];
    let presentIndices; // the own indices, looked up once the first hole is met
    let index = 0;
    while (output.length < limit && index < length) {
      if (hasOwn(array, index)) {
        output.push(formatProperty(ctx, array, level, index, 'array'));
        index++;
        continue;
      }
      if (presentIndices === undefined) {
        const names = Object.getOwnPropertyNames(array);
        presentIndices = names.slice(0, countIndices(names)).map(Number);
      }
      const next = presentIndices.find((i) => i > index) ?? length;
      if (next === length) break;
      output.push(`<${plural(next - index, 'empty item')}>`);
      index = next;
    }
    const remaining = length - index;
    if (remaining > 0) {
      output.push(output.length < limit ? `<${plural(remaining, 'empty item')}>` : moreItems(remaining));
    }
    return output;
  }

  function typedArrayEntries(ctx, array) {
    const length = typedArrayLength(array);
    const limit = Math.min(Math.max(0, ctx.maxArrayLength), length);
    const output = [];
    for (let i = 0; i < limit; i++) output.push(formatPrimitive(ctx, array[i]));
    if (length > limit) output.push(moreItems(length - limit));
    return output;
  }

  function setEntries(ctx, set, size, level) {
    const limit = Math.min(Math.max(0, ctx.maxArrayLength), size);
    const output = [];
    ctx.indentationLvl += 2;
    for (const item of Set.prototype.values.call(set)) {
      if (output.length >= limit) break;
      output.push(formatValue(ctx, item, level));
    }
    if (size > limit) output.push(moreItems(size - limit));
    ctx.indentationLvl -= 2;
    return output;
  }

  function mapEntries(ctx, map, size, level) {
    const limit = Math.min(Math.max(0, ctx.maxArrayLength), size);
    const output = [];
    ctx.indentationLvl += 2;
    for (const [key, item] of Map.prototype.entries.call(map)) {
      if (output.length >= limit) break;
      output.push(`${formatValue(ctx, key, level)} => ${formatValue(ctx, item, level)}`);
    }
    if (size > limit) output.push(moreItems(size - limit));
    ctx.indentationLvl -= 2;
    return output;
  }

  function hexBytes(ctx, buffer) {
    const bytes = new Uint8Array(buffer);
    const shown = Math.min(Math.max(0, ctx.maxArrayLength), bytes.length);
    let text = Array.from(bytes.subarray(0, shown), (b) => b.toString(16).padStart(2, '0')).join(' ');
    if (bytes.length > shown) text += ` ... ${plural(bytes.length - shown, 'more byte')}`;
    return text;
  }

  // "key: value" for an object property (or just the value for an array item), with getters unread.
  function formatProperty(ctx, object, level, key, type) {
    const descriptor = Object.getOwnPropertyDescriptor(object, key) ?? { value: object[key], enumerable: true };
    let text;
    let separator = ' ';
    if (descriptor.value !== undefined) {
      const indent = ctx.compact !== true || type !== 'object' ? 2 : 3;
      ctx.indentationLvl += indent;
      text = formatValue(ctx, descriptor.value, level);
      // compact: true moves a value wider than a line to the next line
      if (indent === 3 && ctx.breakLength < textWidth(text)) separator = `\n${' '.repeat(ctx.indentationLvl)}`;
      ctx.indentationLvl -= indent;
    } else if (descriptor.get !== undefined) {
      text = descriptor.set !== undefined ? '[Getter/Setter]' : '[Getter]';
    } else {
      text = descriptor.set !== undefined ? '[Setter]' : 'undefined';
    }
    if (type === 'array') return text;
    return `${propertyName(key, descriptor)}:${separator}${text}`;
  }

  function propertyName(key, descriptor) {
    if (typeof key === 'symbol') return `[${Symbol.prototype.toString.call(key)}]`;
    if (key === '__proto__') return "['__proto__']";
    if (descriptor.enumerable === false) return `[${key}]`;
    return /^[a-zA-Z_][a-zA-Z_0-9]*$/.test(key) ? key : quote(key);
  }

  // ---------------------------------------------------------------- errors
  function stackOf(error) {
    return error.stack ? String(error.stack) : Error.prototype.toString.call(error);
  }

  function formatError(ctx, error, constructor, tag, keys) {
    const name = error.name != null ? String(error.name) : 'Error';
    let stack = stackOf(error);
    // Own name, message and stack keys already visible in the stack are not listed again.
    if (!ctx.showHidden) {
      for (const key of ['name', 'message', 'stack']) {
        const index = keys.indexOf(key);
        if (index !== -1 && stack.includes(error[key])) keys.splice(index, 1);
      }
    }
    if ('cause' in error && !keys.includes('cause')) keys.push('cause');
    if (Array.isArray(error.errors) && !keys.includes('errors')) keys.push('errors');
    stack = nameTheErrorClass(stack, constructor, name, tag);
    let afterMessage = (error.message && stack.indexOf(error.message)) || -1;
    if (afterMessage !== -1) afterMessage += error.message.length;
    const framesStart = stack.indexOf('\n    at', afterMessage);
    if (framesStart === -1) {
      stack = `[${stack}]`; // no stack frames: bracketed like other one-line values
    } else {
      stack = `${stack.slice(0, framesStart)}\n${framesBesideCause(error, stack.slice(framesStart + 1)).join('\n')}`;
    }
    return ctx.indentationLvl === 0 ? stack : stack.replaceAll('\n', `\n${' '.repeat(ctx.indentationLvl)}`);
  }

  // A subclass that left the name "Error" is shown by its class: "ValidationError: ..." or "Oops [Error]: ...".
  function nameTheErrorClass(stack, constructor, name, tag) {
    if (constructor === null) return stack;
    const looksNormal = name.endsWith('Error') && stack.startsWith(name)
      && (stack.length === name.length || stack[name.length] === ':' || stack[name.length] === '\n');
    if (!looksNormal) return stack;
    const prefix = prefixOf(constructor, tag, 'Error').slice(0, -1);
    if (prefix === name) return stack;
    const rest = stack.slice(name.length);
    return prefix.includes(name) ? prefix + rest : `${prefix} [${name}]${rest}`;
  }

  // The frames an error shares with its cause's stack are folded into one "... n lines matching" line.
  function framesBesideCause(error, framesText) {
    const frames = framesText.split('\n');
    let cause;
    try { cause = error.cause; } catch { return frames; }
    if (cause == null || !isError(cause)) return frames;
    const causeStack = stackOf(cause);
    const causeStart = causeStack.indexOf('\n    at');
    if (causeStart === -1) return frames;
    const causeFrames = causeStack.slice(causeStart + 1).split('\n');
    for (let i = 0; i < frames.length - 3; i++) {
      const at = causeFrames.indexOf(frames[i]);
      if (at === -1 || causeFrames.length - at <= 3) continue;
      const most = Math.min(frames.length - i, causeFrames.length - at);
      let same = 1;
      while (same < most && frames[i + same] === causeFrames[at + same]) same++;
      if (same > 3) {
        frames.splice(i + 1, same - 2, `    ... ${same - 2} lines matching cause stack trace ...`);
        break;
      }
    }
    return frames;
  }

  // ---------------------------------------------------------------- line breaking
  function joinEntries(ctx, output, base, braces, isArrayLike, level, value) {
    const lead = base === '' ? '' : `${base} `;
    if (ctx.compact === true) return joinEntriesCompact(ctx, output, base, braces);
    if (typeof ctx.compact === 'number' && ctx.compact >= 1) {
      const count = output.length;
      if (isArrayLike && count > 6) output = groupInColumns(ctx, output, value);
      // Only the `compact` innermost levels, counted from the object formatted last, may share a line.
      if (ctx.currentDepth - level < ctx.compact && count === output.length) {
        // Node's budget for one line: the entries, two characters per entry, the indentation, the opening
        // brace and base, and ten more.
        const start = output.length + ctx.indentationLvl + braces[0].length + base.length + 10;
        if (fitsOnOneLine(ctx, output, start, base)) {
          const joined = output.join(', ');
          if (!joined.includes('\n')) return `${lead}${braces[0]} ${joined} ${braces[1]}`;
        }
      }
    }
    const indentation = `\n${' '.repeat(ctx.indentationLvl)}`;
    return `${lead}${braces[0]}${indentation}  ${output.join(`,${indentation}  `)}${indentation}${braces[1]}`;
  }

  function fitsOnOneLine(ctx, output, start, base) {
    let total = output.length + start;
    for (const entry of output) total += entry.length;
    return total <= ctx.breakLength && !base.includes('\n');
  }

  function joinEntriesCompact(ctx, output, base, braces) {
    if (fitsOnOneLine(ctx, output, 0, base)) {
      return `${braces[0]}${base ? ` ${base}` : ''} ${output.join(', ')} ${braces[1]}`;
    }
    const indentation = ' '.repeat(ctx.indentationLvl);
    const afterBrace = base === '' && braces[0].length === 1 ? ' ' : `${base ? ` ${base}` : ''}\n${indentation}  `;
    return `${braces[0]}${afterBrace}${output.join(`,\n${indentation}  `)} ${braces[1]}`;
  }

  // Arrays of more than six entries are laid out in aligned columns: about as many as make the block
  // square (a character being some 2.5 times as high as wide), at most 15 and within breakLength, and only
  // when three entries fit side by side and no entry dwarfs the others. Numbers align right, others left.
  function groupInColumns(ctx, output, value) {
    const hasMoreMarker = ctx.maxArrayLength < output.length; // "... n more items" keeps a line of its own
    const count = hasMoreMarker ? output.length - 1 : output.length;
    const separator = 2; // ", "
    const widths = output.slice(0, count).map(textWidth);
    const totalLength = widths.reduce((sum, width) => sum + width + separator, 0);
    const maxLength = Math.max(...widths);
    const cellWidth = maxLength + separator;
    if (cellWidth * 3 + ctx.indentationLvl >= ctx.breakLength || (totalLength / cellWidth <= 5 && maxLength > 6)) {
      return output;
    }
    const averageBias = Math.sqrt(cellWidth - totalLength / output.length);
    const biasedMax = Math.max(cellWidth - 3 - averageBias, 1);
    const columns = Math.min(
      Math.round(Math.sqrt(2.5 * biasedMax * count) / biasedMax),
      Math.floor((ctx.breakLength - ctx.indentationLvl) / cellWidth),
      ctx.compact * 4,
      15,
    );
    if (columns <= 1) return output;
    const columnWidths = [];
    for (let column = 0; column < columns; column++) {
      let widest = 0;
      for (let i = column; i < count; i += columns) widest = Math.max(widest, widths[i]);
      columnWidths.push(widest + separator);
    }
    const alignRight = value !== undefined
      && output.every((_, i) => typeof value[i] === 'number' || typeof value[i] === 'bigint');
    const rows = [];
    for (let start = 0; start < count; start += columns) {
      const end = Math.min(start + columns, count);
      let row = '';
      for (let i = start; i < end; i++) {
        const padTo = columnWidths[i - start] + output[i].length - widths[i];
        if (i < end - 1) row += alignRight ? `${output[i]}, `.padStart(padTo) : `${output[i]}, `.padEnd(padTo);
        else row += alignRight ? output[i].padStart(padTo - separator) : output[i];
      }
      rows.push(row);
    }
    if (hasMoreMarker) rows.push(output[count]);
    return rows;
  }

  // Columns a text takes in a terminal: East Asian wide characters and emoji take two, combining marks none.
  const wideRanges = String.raw`\u1100-\u115f\u2e80-\u303e\u3041-\u33ff\u3400-\u4dbf\u4e00-\u9fff\ua000-\ua4cf`
    + String.raw`\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff01-\uff60\uffe0-\uffe6` // Hangul, CJK, fullwidth forms
    + String.raw`\u{1f300}-\u{1f64f}\u{1f900}-\u{1f9ff}\u{20000}-\u{3fffd}`; // emoji, CJK extensions
  const wide = new RegExp(`[${wideRanges}]`, 'u');
  const zeroWidth = /[\x00-\x1f\x7f-\x9f\u0300-\u036f\u200b-\u200f\u20d0-\u20ff\ufe00-\ufe0f\ufe20-\ufe2f]/u;
  function textWidth(text) {
    let width = 0;
    for (const character of text.normalize('NFC')) {
      if (zeroWidth.test(character)) continue;
      width += wide.test(character) ? 2 : 1;
    }
    return width;
  }

  // ---------------------------------------------------------------- inspect and format
  function inspect(value, options = {}) {
    const ctx = { ...defaults, seen: [], circular: new Map(), indentationLvl: 0, currentDepth: 0 };
    for (const key of Object.keys(defaults)) {
      if (options[key] !== undefined) ctx[key] = options[key];
    }
    if (ctx.depth === null) ctx.depth = Infinity;
    if (ctx.maxArrayLength === null) ctx.maxArrayLength = Infinity;
    if (ctx.maxStringLength === null) ctx.maxStringLength = Infinity;
    return formatValue(ctx, value, 0);
  }
  inspect.custom = customInspect;

  // Names of the global classes (Object, Error, Map, ...), taken before user code adds globals of its own:
  // an object whose toString comes from one of them is inspected by %s rather than converted with String().
  const builtinNames = new Set(Object.getOwnPropertyNames(globalThis)
    .filter((name) => /^[A-Z][a-zA-Z0-9]+$/.test(name)));
  function hasBuiltinToString(value) {
    if (typeof value.toString !== 'function') return true;
    if (hasOwn(value, 'toString')) return false;
    let holder = value;
    do { holder = Object.getPrototypeOf(holder); } while (holder !== null && !hasOwn(holder, 'toString'));
    const descriptor = holder === null ? undefined : Object.getOwnPropertyDescriptor(holder, 'constructor');
    return typeof descriptor?.value === 'function' && builtinNames.has(descriptor.value.name);
  }

  let circularJsonMessage;
  function jsonOf(value) {
    try {
      return `${JSON.stringify(value)}`;
    } catch (error) {
      if (circularJsonMessage === undefined) {
        const loop = {};
        loop.loop = loop;
        try { JSON.stringify(loop); } catch (circular) { circularJsonMessage = firstLine(circular.message); }
      }
      if (error.name === 'TypeError' && firstLine(error.message) === circularJsonMessage) return '[Circular]';
      throw error;
    }
  }
  const firstLine = (text) => String(text).split('\n')[0];

  const substitutions = {
    s: (arg) => {
      if (typeof arg === 'number') return formatNumber(arg);
      if (typeof arg === 'bigint') return `${arg}n`;
      if (typeof arg !== 'object' || arg === null || !hasBuiltinToString(arg)) return String(arg);
      return inspect(arg, { depth: 0 });
    },
    d: (arg) => (typeof arg === 'bigint' ? `${arg}n` : typeof arg === 'symbol' ? 'NaN' : formatNumber(Number(arg))),
    i: (arg) => (typeof arg === 'bigint' ? `${arg}n` : typeof arg === 'symbol' ? 'NaN' : formatNumber(parseInt(arg))),
    f: (arg) => (typeof arg === 'symbol' ? 'NaN' : formatNumber(parseFloat(arg))),
    j: jsonOf,
    o: (arg) => inspect(arg, { showHidden: true, depth: 4 }),
    O: (arg) => inspect(arg),
    c: () => '',
  };

  // util.format: placeholders in a first string argument take the next arguments; the rest follow,
  // separated by spaces, strings as they are and everything else inspected.
  function format(...args) {
    const first = args[0];
    let used = 0;
    let text = '';
    if (typeof first === 'string') {
      if (args.length === 1) return first;
      used = 1;
      let copiedUpTo = 0;
      for (let i = 0; i < first.length - 1; i++) {
        if (first[i] !== '%') continue;
        const letter = first[++i];
        if (letter === '%') {
          text += first.slice(copiedUpTo, i);
          copiedUpTo = i + 1;
        } else if (used < args.length && hasOwn(substitutions, letter)) {
          text += first.slice(copiedUpTo, i - 1) + substitutions[letter](args[used++]);
          copiedUpTo = i + 1;
        }
      }
      text += first.slice(copiedUpTo);
      if (used < args.length) text += ' ';
    }
    return text + args.slice(used).map((arg) => (typeof arg === 'string' ? arg : inspect(arg))).join(' ');
  }

  // ---------------------------------------------------------------- console
  const now = () => (typeof performance === 'object' && performance !== null ? performance.now() : Date.now());

  // Node's console.time format: "12.345ms", "1.234s", "1:02.345 (m:ss.mmm)", "1:02:03.456 (h:mm:ss.mmm)".
  function formatDuration(ms) {
    if (ms < 1000) return `${Number(ms.toFixed(3))}ms`;
    if (ms < 60000) return `${(ms / 1000).toFixed(3)}s`;
    const hours = Math.floor(ms / 3600000);
    const minutes = Math.floor((ms % 3600000) / 60000);
    const [seconds, millis] = ((ms % 60000) / 1000).toFixed(3).split('.');
    const pad = (n) => `${n}`.padStart(2, '0');
    const lead = hours !== 0 ? `${hours}:${pad(minutes)}` : `${minutes}`;
    return `${lead}:${pad(seconds)}.${millis} (${hours !== 0 ? 'h:m' : ''}m:ss.mmm)`;
  }

  function makeConsole(writeOut, writeErr) {
    let groupIndent = '';
    const counts = new Map();
    const timers = new Map();

    const write = (sink, text) => {
      if (groupIndent !== '') text = groupIndent + text.replaceAll('\n', `\n${groupIndent}`);
      sink(`${text}\n`);
    };
    const log = (...args) => write(writeOut, format(...args));
    const error = (...args) => write(writeErr, format(...args));
    // Node reports misuse (an unknown label) as a process warning, "(node:PID) Warning: ...", unindented.
    const warnMisuse = (message) => writeErr(`Warning: ${message}\n`);

    function trace(...args) {
      const message = format(...args);
      const frames = String(new Error().stack).split('\n').filter((line) => line.startsWith('    at '));
      frames.shift(); // this function's own frame
      error([message === '' ? 'Trace' : `Trace: ${message}`, ...frames].join('\n'));
    }

    function timeLog(label = 'default', ...data) {
      label = `${label}`;
      if (!timers.has(label)) return warnMisuse(`No such label '${label}' for console.timeLog()`);
      log('%s: %s', label, formatDuration(now() - timers.get(label)), ...data);
    }

    return {
      log, info: log, debug: log, dirxml: log,
      error, warn: error, trace,
      dir: (value, options) => write(writeOut, inspect(value, { customInspect: false, ...options })),
      assert(condition, ...args) {
        if (condition) return;
        args[0] = `Assertion failed${args.length === 0 ? '' : `: ${args[0]}`}`;
        error(...args);
      },
      count(label = 'default') {
        label = `${label}`;
        const count = (counts.get(label) ?? 0) + 1;
        counts.set(label, count);
        log(`${label}: ${count}`);
      },
      countReset(label = 'default') {
        label = `${label}`;
        if (!counts.delete(label)) warnMisuse(`Count for '${label}' does not exist`);
      },
      time(label = 'default') {
        label = `${label}`;
        if (timers.has(label)) return warnMisuse(`Label '${label}' already exists for console.time()`);
        timers.set(label, now());
      },
      timeLog,
      timeEnd(label = 'default') {
        label = `${label}`;
        if (!timers.has(label)) return warnMisuse(`No such label '${label}' for console.timeEnd()`);
        log('%s: %s', label, formatDuration(now() - timers.get(label)));
        timers.delete(label);
      },
      group(...labels) {
        if (labels.length > 0) log(...labels);
        groupIndent += '  ';
      },
      groupCollapsed(...labels) {
        if (labels.length > 0) log(...labels);
        groupIndent += '  ';
      },
      groupEnd() {
        groupIndent = groupIndent.slice(0, -2);
      },
      table(data, columns) {
        if (data !== null && typeof data === 'object') write(writeOut, table(data, columns));
        else log(data);
      },
    };
  }

  // ---------------------------------------------------------------- console.table
  // Cells are inspected on one line, at most three array items, and objects of more than two keys abbreviated.
  function tableCell(value) {
    const abbreviate = value !== null && typeof value === 'object' && !Array.isArray(value)
      && Object.keys(value).length > 2;
    return inspect(value, { depth: abbreviate ? -1 : 0, maxArrayLength: 3, breakLength: Infinity });
  }

  function table(data, chosenColumns) {
    const iterationIndices = (count) => Array.from({ length: count }, (_, i) => tableCell(i));
    if (isMap(data)) {
      const keys = [];
      const values = [];
      for (const [key, value] of Map.prototype.entries.call(data)) {
        keys.push(tableCell(key));
        values.push(tableCell(value));
      }
      return drawTable(['(iteration index)', 'Key', 'Values'], [iterationIndices(keys.length), keys, values]);
    }
    if (isSet(data)) {
      const values = Array.from(Set.prototype.values.call(data), tableCell);
      return drawTable(['(iteration index)', 'Values'], [iterationIndices(values.length), values]);
    }
    const columns = Object.create(null); // an object, so integer-like column names come first, as in Node
    const primitiveValues = [];
    let hasPrimitives = false;
    const rowKeys = Object.keys(data);
    rowKeys.forEach((rowKey, row) => {
      const item = data[rowKey];
      const isPrimitive = item === null || (typeof item !== 'function' && typeof item !== 'object');
      if (chosenColumns === undefined && isPrimitive) {
        hasPrimitives = true;
        primitiveValues[row] = tableCell(item);
        return;
      }
      for (const key of chosenColumns ?? Object.keys(item)) {
        columns[key] ??= [];
        columns[key][row] = isPrimitive || !hasOwn(item, key) ? '' : tableCell(item[key]);
      }
    });
    const heads = ['(index)', ...Object.keys(columns)];
    const values = [rowKeys, ...Object.values(columns)];
    if (hasPrimitives) {
      heads.push('Values');
      values.push(primitiveValues);
    }
    return drawTable(heads, values);
  }

  function drawTable(heads, columns) {
    const rowCount = columns.reduce((longest, column) => Math.max(longest, column.length), 0);
    const cellOf = (column, row) => (hasOwn(column, row) ? column[row] : '');
    const rows = Array.from({ length: rowCount }, (_, row) => columns.map((column) => cellOf(column, row)));
    const widthOf = (i) => rows.reduce((widest, row) => Math.max(widest, textWidth(row[i])), textWidth(heads[i]));
    const widths = heads.map((_, i) => widthOf(i));
    const rule = (left, middle, right) => left + widths.map((width) => '─'.repeat(width + 2)).join(middle) + right;
    const padded = (cell, i) => cell + ' '.repeat(widths[i] - textWidth(cell));
    const render = (cells) => `│ ${cells.map(padded).join(' │ ')} │`;
    const lines = [rule('┌', '┬', '┐'), render(heads), rule('├', '┼', '┤'), ...rows.map(render), rule('└', '┴', '┘')];
    return lines.join('\n');
  }

  return { inspect, format, makeConsole };
})();
