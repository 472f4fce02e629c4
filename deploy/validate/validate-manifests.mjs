// Checks rendered Kubernetes manifests offline against the API schemas of a pinned Kubernetes version, and
// writes them as one JSON array for the tests to read. Run by bin/validate-deploy:
//
//   node validate-manifests.mjs RENDERED.yaml [--json OUT.json] [--same-as OTHER.yaml]
//
// Schemas: npm kubernetes-models 5.1.0, generated from the OpenAPI spec of Kubernetes 1.36.0 (and ajv-compiled,
// so nothing is fetched at run time). Those schemas accept unknown fields, where the API server would drop them
// (or refuse them with --validate=strict): a misspelt "readinesProbe" would pass. So every object is also checked
// for fields the schema never looked at: the validator reads each property it knows, so a property of an object
// it inspected that it never read is unknown. Maps (labels, data, ...) are iterated by the validator, and
// objects it did not look into at all (free-form values) are not judged.
// --same-as: the two renders (two kustomize versions) must hold the same objects, generated names' hashes aside.
// Exit 0 when all is well; 1 with one line per problem otherwise.
import { readFileSync, writeFileSync } from "node:fs";
import { parseAllDocuments } from "yaml";

const KUBERNETES_VERSION = "1.36.0";

function usage() {
  console.error("usage: node validate-manifests.mjs RENDERED.yaml [--json OUT.json] [--same-as OTHER.yaml]");
  process.exit(2);
}

const args = process.argv.slice(2);
let input;
let jsonOut;
let sameAs;
for (let i = 0; i < args.length; i++) {
  if (args[i] === "--json") jsonOut = args[++i];
  else if (args[i] === "--same-as") sameAs = args[++i];
  else if (!input) input = args[i];
  else usage();
}
if (!input) usage();

function readObjects(file) {
  const docs = parseAllDocuments(readFileSync(file, "utf8"), { uniqueKeys: true, prettyErrors: true });
  const objects = [];
  for (const doc of docs) {
    if (doc.errors.length > 0) {
      throw new Error(`${file}: ${doc.errors.map((e) => e.message).join("; ")}`);
    }
    const value = doc.toJS({ maxAliasCount: 0 });
    if (value !== null && value !== undefined) objects.push(value);
  }
  return objects;
}

// apps/v1 StatefulSet -> IoK8sApiAppsV1StatefulSet; v1 Service -> IoK8sApiCoreV1Service;
// networking.k8s.io/v1 NetworkPolicy -> IoK8sApiNetworkingV1NetworkPolicy.
function schemaName(apiVersion, kind) {
  const slash = apiVersion.indexOf("/");
  const group = slash < 0 ? "core" : apiVersion.slice(0, slash).split(".")[0];
  const version = slash < 0 ? apiVersion : apiVersion.slice(slash + 1);
  const cap = (s) => s.charAt(0).toUpperCase() + s.slice(1);
  return `IoK8sApi${cap(group)}${cap(version)}${kind}`;
}

// Wraps value so that every property read, and every iteration over keys, is recorded per JSON path.
function recording(value, path, read, iterated, touched) {
  if (value === null || typeof value !== "object") return value;
  const children = new Map();
  return new Proxy(value, {
    get(target, key, receiver) {
      if (typeof key === "string") {
        touched.add(path);
        read.add(path + "\u0000" + key);
      }
      if (typeof key === "string" && Object.prototype.hasOwnProperty.call(target, key)) {
        if (!children.has(key)) {
          children.set(key, recording(target[key], path + "/" + key, read, iterated, touched));
        }
        return children.get(key);
      }
      return Reflect.get(target, key, receiver);
    },
    has(target, key) {
      if (typeof key === "string") {
        touched.add(path);
        read.add(path + "\u0000" + key);
      }
      return Reflect.has(target, key);
    },
    getOwnPropertyDescriptor(target, key) {
      if (typeof key === "string") {
        touched.add(path);
        read.add(path + "\u0000" + key);
      }
      return Reflect.getOwnPropertyDescriptor(target, key);
    },
    ownKeys(target) {
      iterated.add(path);
      return Reflect.ownKeys(target);
    },
  });
}

// Properties of inspected objects that the schema never read: unknown fields.
function unknownFields(value, path, read, iterated, touched, found) {
  if (value === null || typeof value !== "object") return;
  if (Array.isArray(value)) {
    value.forEach((item, i) => unknownFields(item, `${path}/${i}`, read, iterated, touched, found));
    return;
  }
  const keys = Object.keys(value);
  if (touched.has(path) && !iterated.has(path)) {
    for (const k of keys) {
      if (!read.has(path + "\u0000" + k)) found.push(`${path}/${k}`);
    }
  }
  for (const k of keys) unknownFields(value[k], `${path}/${k}`, read, iterated, touched, found);
}

// The precompiled validators report keyword and params only, no message.
function describe(e) {
  switch (e.keyword) {
    case "type":
      return `must be of type ${e.params.type}`;
    case "enum":
      return `must be one of: ${e.params.allowedValues.join(", ")}`;
    case "required":
      return `lacks the required field ${e.params.missingProperty}`;
    case "format":
      return `must have the format ${e.params.format}`;
    case "oneOf":
      return "matches none of the allowed forms";
    default:
      return e.message ?? `fails ${e.keyword} ${JSON.stringify(e.params)}`;
  }
}

// kustomize wraps long base64 values (a generated Secret's data) over several lines; the API server's decoder
// skips the line breaks, the schema's "byte" format does not.
function base64Unwrapped(o) {
  const field = o.kind === "Secret" ? "data" : o.kind === "ConfigMap" ? "binaryData" : null;
  if (!field || o[field] === null || typeof o[field] !== "object") return o;
  const values = Object.fromEntries(
    Object.entries(o[field]).map(([k, v]) => [k, typeof v === "string" ? v.replace(/[\r\n]/g, "") : v]));
  return { ...o, [field]: values };
}

function label(o) {
  return `${o?.kind ?? "?"}/${o?.metadata?.name ?? "?"}`;
}

async function validate(objects) {
  const problems = [];
  for (const o of objects) {
    if (typeof o !== "object" || typeof o.apiVersion !== "string" || typeof o.kind !== "string") {
      problems.push(`${label(o)}: not a Kubernetes object (apiVersion and kind are required)`);
      continue;
    }
    if (!o.metadata?.name) problems.push(`${label(o)}: metadata.name is required`);
    const name = schemaName(o.apiVersion, o.kind);
    let schema;
    try {
      schema = await import(`kubernetes-models/_schemas/${name}`);
    } catch {
      problems.push(`${label(o)}: ${o.apiVersion} ${o.kind} is not a Kubernetes ${KUBERNETES_VERSION} API type`);
      continue;
    }
    const read = new Set();
    const iterated = new Set();
    const touched = new Set();
    const ok = schema.validate(recording(base64Unwrapped(o), "", read, iterated, touched));
    if (!ok) {
      for (const e of schema.validate.errors ?? []) {
        problems.push(`${label(o)}: ${e.instancePath || "/"} ${describe(e)}`);
      }
    }
    const unknown = [];
    unknownFields(o, "", read, iterated, touched, unknown);
    for (const path of unknown) problems.push(`${label(o)}: ${path} is not a field of ${o.apiVersion} ${o.kind}`);
    if (ok && unknown.length === 0) console.log(`  ok  ${o.apiVersion} ${label(o)}`);
  }
  return problems;
}

// Generated names end in -<10 characters of hash>, and differ between kustomize versions: blank the hash.
function normalized(objects) {
  const generated = new Map();
  for (const o of objects) {
    const n = o.metadata?.name ?? "";
    if ((o.kind === "ConfigMap" || o.kind === "Secret") && /-[a-z0-9]{10}$/.test(n)) {
      generated.set(n, n.slice(0, -10) + "HASH");
    }
  }
  const replace = (v) => {
    if (typeof v === "string") return generated.get(v) ?? v;
    if (Array.isArray(v)) return v.map(replace);
    if (v !== null && typeof v === "object") {
      return Object.fromEntries(Object.keys(v).sort().map((k) => [k, replace(v[k])]));
    }
    return v;
  };
  return objects.map(replace).map((o) => JSON.stringify(o)).sort();
}

let problems;
let objects;
try {
  objects = readObjects(input);
  if (objects.length === 0) throw new Error(`${input}: no objects`);
  console.log(`Schema check against Kubernetes ${KUBERNETES_VERSION} (kubernetes-models), unknown fields refused:`);
  problems = await validate(objects);
  if (sameAs) {
    const other = normalized(readObjects(sameAs));
    const mine = normalized(objects);
    const missing = mine.filter((s) => !other.includes(s));
    const extra = other.filter((s) => !mine.includes(s));
    for (const s of missing) problems.push(`only in ${input}: ${label(JSON.parse(s))}`);
    for (const s of extra) problems.push(`only in ${sameAs}: ${label(JSON.parse(s))}`);
    if (missing.length === 0 && extra.length === 0) {
      console.log(`  ok  ${sameAs} holds the same ${objects.length} objects`);
    }
  }
} catch (e) {
  problems = [String(e.message ?? e)];
}
if (jsonOut && objects && problems.length === 0) writeFileSync(jsonOut, JSON.stringify(objects, null, 2) + "\n");
if (problems.length > 0) {
  for (const p of problems) console.error(`  FAIL  ${p}`);
  process.exit(1);
}
