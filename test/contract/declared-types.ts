// The 1.x client (@polar-sh/sdk 1.0.1) validates nothing at run time: what it promises its callers
// is the TypeScript its .d.mts files declare, per API version. This reads those declarations with
// the TypeScript compiler and checks a JSON value against the type a client method returns: every
// required property present, each value of the declared type (literals and enums closed, unions
// by their closest member), and the properties the type does not declare reported apart.
import ts from "typescript";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "..");

export interface Conformance {
  /** Where the value breaks the type: `Product.prices[0].amount_type: "x" is not "fixed" | …`. */
  errors: string[];
  /** Properties the value has and the type does not declare, as `Type.property`. */
  undeclared: string[];
}

export interface DeclaredClient {
  /** The client's methods that make a request, by path (`customerPortal.licenseKeys.get`); the `iter*` pagers call `list`. */
  readonly methods: readonly string[];
  /** `value` against what `method` declares it returns (a Promise's value). */
  check(method: string, value: unknown): Conformance;
  /** The properties a named model of the version declares (`LicenseKeyRead`), with whether each is required. */
  modelProperties(name: string): Record<string, { required: boolean }>;
}

/** The client `createPolar` of `entry` (`polar-sdk-1/2026-04`) builds, as its declarations type it. */
export function declaredClient(entry: string): DeclaredClient {
  const file = join(ROOT, "test", "contract", `__declared_${entry.replace(/\W/g, "_")}.mts`);
  const source = `import type { Polar, models } from "${entry}";\nexport declare const client: Polar;\nexport type { models };\n`;
  const options: ts.CompilerOptions = {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    strict: true,
    skipLibCheck: true,
    noEmit: true,
    types: [],
    target: ts.ScriptTarget.ES2022,
  };
  const host = ts.createCompilerHost(options);
  const readFile = host.readFile.bind(host);
  const getSourceFile = host.getSourceFile.bind(host);
  host.fileExists = (
    (exists) => (name: string) =>
      name === file || exists(name)
  )(host.fileExists.bind(host));
  host.readFile = (name) => (name === file ? source : readFile(name));
  host.getSourceFile = (name, version, onError, create) =>
    name === file ? ts.createSourceFile(name, source, version) : getSourceFile(name, version, onError, create);
  const program = ts.createProgram([file], options, host);
  const checker = program.getTypeChecker();
  const sf = program.getSourceFile(file);
  const problems = ts.getPreEmitDiagnostics(program).filter((d) => d.file === sf);
  if (!sf || problems.length)
    throw new Error(`${entry}: ${problems.map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n")).join("; ")}`);
  const moduleSymbol = checker.getSymbolAtLocation(sf);
  const exported = moduleSymbol ? checker.getExportsOfModule(moduleSymbol) : [];
  const clientSymbol = exported.find((s) => s.name === "client");
  const modelsSymbol = exported.find((s) => s.name === "models");
  if (!clientSymbol || !modelsSymbol) throw new Error(`${entry}: no client or models`);

  // The methods: properties with a call signature, under the services (objects) that hold them.
  const returns = new Map<string, ts.Type>();
  const walk = (type: ts.Type, prefix: string) => {
    for (const prop of checker.getPropertiesOfType(type)) {
      const t = checker.getTypeOfSymbol(prop);
      const path = prefix ? `${prefix}.${prop.name}` : prop.name;
      const [signature] = t.getCallSignatures();
      if (signature) {
        if (!prop.name.startsWith("iter"))
          returns.set(path, checker.getAwaitedType(signature.getReturnType()) ?? signature.getReturnType());
      } else if (t.flags & ts.TypeFlags.Object) walk(t, path);
    }
  };
  walk(checker.getTypeOfSymbol(clientSymbol), "");
  const models = checker.getExportsOfModule(checker.getAliasedSymbol(modelsSymbol));

  const name = (t: ts.Type) => (t.aliasSymbol ?? t.getSymbol())?.name ?? checker.typeToString(t);
  const show = (v: unknown) => JSON.stringify(v)?.slice(0, 80);

  const kindOfValue = (v: unknown) => (v === null ? "null" : Array.isArray(v) ? "array" : typeof v);
  function kindOfType(t: ts.Type): string {
    const f = t.flags;
    if (f & (ts.TypeFlags.Any | ts.TypeFlags.Unknown)) return "any";
    if (f & ts.TypeFlags.Null) return "null";
    if (f & (ts.TypeFlags.Undefined | ts.TypeFlags.Void)) return "undefined";
    if (f & ts.TypeFlags.StringLike) return "string";
    if (f & ts.TypeFlags.NumberLike) return "number";
    if (f & ts.TypeFlags.BooleanLike) return "boolean";
    return checker.isArrayType(t) ? "array" : "object";
  }
  /** Whether an object value has the literal the member declares for each tag property it has. */
  function tagsMatch(value: unknown, member: ts.Type): boolean {
    if (kindOfValue(value) !== "object" || kindOfType(member) !== "object") return false;
    let tags = 0;
    for (const prop of checker.getPropertiesOfType(member)) {
      const t = checker.getTypeOfSymbol(prop);
      if (!t.isStringLiteral()) continue;
      tags++;
      if ((value as Record<string, unknown>)[prop.name] !== t.value) return false;
    }
    return tags > 0;
  }

  function conform(value: unknown, type: ts.Type, at: string, out: Conformance): void {
    const f = type.flags;
    if (f & (ts.TypeFlags.Any | ts.TypeFlags.Unknown)) return;
    if (type.isUnion()) {
      let best: Conformance | undefined;
      // The members the value could be at all: of its kind (null, a list, an object…), and for an
      // object the members whose literal-typed properties (tags) it matches, when any does.
      const ofKind = type.types.filter((m) => kindOfType(m) === kindOfValue(value) || kindOfType(m) === "any");
      const tagged = ofKind.filter((m) => tagsMatch(value, m));
      for (const member of tagged.length ? tagged : ofKind.length ? ofKind : type.types) {
        const tried: Conformance = { errors: [], undeclared: [] };
        conform(value, member, at, tried);
        if (!tried.errors.length) {
          out.undeclared.push(...tried.undeclared);
          return;
        }
        if (!best || tried.errors.length < best.errors.length) best = tried;
      }
      // The closest member's complaints (a tagged union's: the member of the value's tag).
      if (best) out.errors.push(...best.errors);
      else out.errors.push(`${at}: ${show(value)} is none of ${checker.typeToString(type)}`);
      return;
    }
    const fail = (what: string): void => void out.errors.push(`${at}: ${show(value)} is not ${what}`);
    if (f & ts.TypeFlags.Null) return void (value !== null && fail("null"));
    if (f & (ts.TypeFlags.Undefined | ts.TypeFlags.Void)) return void (value !== undefined && fail("undefined"));
    if (type.isStringLiteral() || type.isNumberLiteral()) return void (value !== type.value && fail(JSON.stringify(type.value)));
    if (f & ts.TypeFlags.BooleanLiteral)
      return void (value !== (checker.typeToString(type) === "true") && fail(checker.typeToString(type)));
    if (f & ts.TypeFlags.String) return void (typeof value !== "string" && fail("a string"));
    if (f & ts.TypeFlags.Number) return void (typeof value !== "number" && fail("a number"));
    if (f & ts.TypeFlags.Boolean) return void (typeof value !== "boolean" && fail("a boolean"));
    if (f & ts.TypeFlags.Never) return fail("anything (never)");
    if (checker.isArrayType(type)) {
      if (!Array.isArray(value)) return fail("an array");
      const item = checker.getIndexTypeOfType(type, ts.IndexKind.Number);
      if (item) value.forEach((v, i) => conform(v, item, `${at}[${i}]`, out));
      return;
    }
    if (!(f & ts.TypeFlags.Object) && !type.isIntersection()) return fail(checker.typeToString(type));
    if (typeof value !== "object" || value === null || Array.isArray(value)) return fail(`an object (${name(type)})`);
    const record = value as Record<string, unknown>;
    const declared = new Set<string>();
    for (const prop of checker.getPropertiesOfType(type)) {
      declared.add(prop.name);
      const optional = (prop.flags & ts.SymbolFlags.Optional) !== 0;
      if (!Object.hasOwn(record, prop.name)) {
        if (!optional) out.errors.push(`${at}.${prop.name}: missing (${name(type)} requires it)`);
        continue;
      }
      conform(record[prop.name], checker.getTypeOfSymbol(prop), `${at}.${prop.name}`, out);
    }
    const index = checker.getIndexInfosOfType(type)[0];
    for (const key of Object.keys(record)) {
      if (declared.has(key)) continue;
      if (index) conform(record[key], index.type, `${at}[${JSON.stringify(key)}]`, out);
      else out.undeclared.push(`${name(type)}.${key}`);
    }
  }

  return {
    methods: [...returns.keys()].sort(),
    check(method, value) {
      const type = returns.get(method);
      if (!type) throw new Error(`${entry} has no method ${method}`);
      const out: Conformance = { errors: [], undeclared: [] };
      if (type.flags & ts.TypeFlags.Void) return out;
      conform(value, type, name(type), out);
      out.undeclared = [...new Set(out.undeclared)].sort();
      return out;
    },
    modelProperties(model) {
      const symbol = models.find((s) => s.name === model);
      if (!symbol) throw new Error(`${entry} declares no model ${model}`);
      const type = checker.getDeclaredTypeOfSymbol(symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol);
      return Object.fromEntries(
        checker.getPropertiesOfType(type).map((p) => [p.name, { required: (p.flags & ts.SymbolFlags.Optional) === 0 }]),
      );
    },
  };
}
