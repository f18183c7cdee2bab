import { parseTree, type ParseError } from 'jsonc-parser';
import type { Range } from 'vscode-languageserver-types';
import { joinLinesInStrings, keyNodeOf, propertyIgnoreCase, stringValue, LARGE_DOCUMENT, MAX_DEPTH, type Node } from '../json';
import { LineIndex } from '../text';
import { classify, mentionsPolicyKeys } from '../model/documentKind';
import { embeddedSets, readsEmbedded } from '../model/embedded';
import { modelOfResource, type SetModel } from '../model/policySet';
import { assembleSplitSet, SPLIT_PARTS, SPLIT_PART_KEYS, type PartText, type SplitPart } from '../model/splitSet';

/** Where a change is: the file (a URI or path, as given), a JSON pointer in it, and the range to mark. */
export interface Location {
  file: string;
  pointer: string;
  range: Range;
}

/** One side of a comparison: one set read from its file (or from the parts of a split set). */
export interface SetSide {
  /** The file (or the definitions part) as named by the caller. */
  file: string;
  set: SetModel;
  /** The resource's name as written (a template's resource may be named '<set>/<version>'). */
  name: string | undefined;
  /** The version of the set and where it was read (see versionOf). */
  version: { text: string; node: Node; source: 'properties.version' | 'name' | 'metadata.version' } | undefined;
  locate(node: Node): Location;
}

/**
 * A file read as sides, or why not. `notASet`, when the file holds no set (JSON that is not one, or text
 * that is not JSON and names no policy key), says why: a walk passes over it, as lint does; a named file is
 * a problem.
 */
/** The reason a JSON file that holds no set is passed over. */
export const NOT_A_SET = 'not a policy set definition';

export type ReadSides = { ok: true; sides: SetSide[] } | { ok: false; problem: string; notASet?: string };

const PARSE_OPTIONS = { allowTrailingComma: true, disallowComments: false };

const ERROR_NAMES: Record<number, string> = {
  1: 'invalid symbol',
  2: 'invalid number',
  3: 'property name expected',
  4: 'value expected',
  5: 'colon expected',
  6: 'comma expected',
  7: "'}' expected",
  8: "']' expected",
  9: 'end of file expected',
};

/** The JSON pointer of a node (RFC 6901), read from its parents. */
export function pointerOf(node: Node): string {
  const segments: string[] = [];
  let current: Node | undefined = node;
  while (current?.parent) {
    const parent: Node = current.parent;
    if (parent.type === 'property') {
      const key = parent.children?.[0];
      if (key && key !== current) segments.push(String(key.value));
      current = parent.parent;
      continue;
    }
    if (parent.type === 'array') segments.push(String(parent.children?.indexOf(current) ?? 0));
    current = parent;
  }
  return segments
    .reverse()
    .map((s) => '/' + s.replace(/~/g, '~0').replace(/\//g, '~1'))
    .join('');
}

function rangeOf(lines: LineIndex, node: Node): Range {
  const key = keyNodeOf(node);
  if (key && (node.type === 'object' || node.type === 'array')) return lines.rangeOf(key.offset, key.offset + key.length);
  return lines.rangeOf(node.offset, node.offset + node.length);
}

const VERSION_NAME = /^\d+\.\d+\.\d+$/;

/**
 * The version of a set: `properties.version`, else the version resource's name (the last segment of a
 * template's '<set>/<version>'), else `metadata.version`.
 */
export function versionOf(set: SetModel): SetSide['version'] {
  const property = propertyIgnoreCase(set.properties, 'version');
  if (property?.type === 'string') return { text: property.value as string, node: property, source: 'properties.version' };
  if (set.kind === 'policySetDefinitionVersion') {
    const nameNode = propertyIgnoreCase(set.resource, 'name');
    const name = stringValue(nameNode);
    const last = name?.split('/').pop();
    if (nameNode && last && !set.isDynamic(nameNode) && (VERSION_NAME.test(last) || /^\d/.test(last)))
      return { text: last, node: nameNode, source: 'name' };
  }
  const metadata = propertyIgnoreCase(propertyIgnoreCase(set.properties, 'metadata'), 'version');
  if (metadata?.type === 'string') return { text: metadata.value as string, node: metadata, source: 'metadata.version' };
  return undefined;
}

function stripBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

function describeErrors(file: string, text: string, errors: ParseError[]): string {
  const first = errors[0];
  const position = new LineIndex(text).positionAt(first.offset);
  return `${file}:${position.line + 1}:${position.character + 1}: not valid JSON (${ERROR_NAMES[first.error] ?? 'syntax error'}): fix it before comparing`;
}

/** How deep brackets nest outside strings: the parser recurses, so a hostile text is refused before it is parsed. */
function deeperThan(text: string, limit: number): number | undefined {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 34 /* " */) {
      for (i++; i < text.length; i++) {
        const d = text.charCodeAt(i);
        if (d === 92 /* \ */) i++;
        else if (d === 34) break;
      }
    } else if (c === 123 || c === 91) {
      if (++depth > limit) return i;
    } else if (c === 125 || c === 93) depth--;
  }
  return undefined;
}

/** Reads the sets of one file: a standalone set, a version resource, a template or fragment, the policy-as-code framework's form. */
export function readSides(file: string, input: string): ReadSides {
  const text = stripBom(input);
  if (text.length > LARGE_DOCUMENT)
    return { ok: false, problem: `${file}: larger than ${LARGE_DOCUMENT / 1024 / 1024} MB of text: not compared` };
  const deep = deeperThan(text, MAX_DEPTH);
  if (deep !== undefined) {
    const position = new LineIndex(text).positionAt(deep);
    return {
      ok: false,
      problem: `${file}:${position.line + 1}:${position.character + 1}: nested deeper than ${MAX_DEPTH} levels: not compared`,
    };
  }
  let errors: ParseError[] = [];
  let root = parseTree(text, errors, PARSE_OPTIONS);
  const joined = errors.length && /"\$schema"\s*:\s*"[^"]*deploymentTemplate\.json/i.test(text) ? joinLinesInStrings(text) : undefined;
  if (joined !== undefined) {
    // A template's strings may span lines, as its engine reads them: the same offsets, one line each.
    const retried: ParseError[] = [];
    const again = parseTree(joined, retried, PARSE_OPTIONS);
    if (!retried.length) [errors, root] = [retried, again];
  }
  if (errors.length || !root) {
    const problem = describeErrors(file, text, errors.length ? errors : [{ error: 4, offset: 0, length: 0 }]);
    return mentionsPolicyKeys(text) ? { ok: false, problem } : { ok: false, problem, notASet: 'not JSON, and no policy key in it' };
  }
  const classification = classify(root);
  if (!classification.resources.length)
    return {
      ok: false,
      problem: `${file}: not a policy set definition (nor a version of one, nor a template holding them)`,
      notASet: NOT_A_SET,
    };
  const lines = new LineIndex(text);
  const embedded = embeddedSets(root, text);
  const readers = classification.resources.filter((resource) => readsEmbedded(resource.node));
  if (readers.length && !embedded.length && readers.length === classification.resources.length) {
    return {
      ok: false,
      problem: `${file}: its set resources are built from template expressions (variables or parameters) that hold no set this reader can see: not compared`,
    };
  }
  const sides: SetSide[] = classification.resources
    .filter((resource) => !embedded.length || !readsEmbedded(resource.node))
    .map((resource) => {
      const set = modelOfResource(text, resource, classification.kind === 'armTemplate' || !!resource.fragment);
      return {
        file,
        set,
        name: stringValue(propertyIgnoreCase(resource.node, 'name')),
        version: versionOf(set),
        locate: (node: Node) => ({ file, pointer: pointerOf(node), range: rangeOf(lines, node) }),
      };
    });
  // Sets embedded in template variables (Bicep's loadTextContent/loadJsonContent): each is read as the
  // file it was loaded from. A location inside a string is shown on the string (its pointer goes on into
  // the JSON the string holds); one inside an object variable is where it is.
  for (const set of embedded) {
    const inner = readSides(file, set.text);
    if (!inner.ok)
      return {
        ok: false,
        problem: `${file}: variables('${set.variable}') holds a set that cannot be read (${inner.problem.replace(`${file}`, 'the string')})`,
      };
    const outer = pointerOf(set.node);
    for (const side of inner.sides) {
      sides.push({
        ...side,
        locate: (node: Node) => {
          const at = side.locate(node);
          if (set.offset === undefined) return { file, pointer: `${outer}${at.pointer}`, range: rangeOf(lines, set.node) };
          return {
            file,
            pointer: `${outer}${at.pointer}`,
            range: lines.rangeOf(set.offset + node.offset, set.offset + node.offset + node.length),
          };
        },
      });
    }
  }
  return { ok: true, sides };
}

/**
 * Reads a split set (the cloud CLI's `<base>.definitions.json`, `.parameters.json`, `.groups.json`): the
 * parts are assembled into one set (model/splitSet.ts), and each location goes back to its part (its
 * pointer inside the part).
 */
export function readSplitSide(parts: Partial<Record<SplitPart, PartText>>): ReadSides {
  if (!parts.definitions) return { ok: false, problem: 'a split set needs its <base>.definitions.json part' };
  for (const part of SPLIT_PARTS) {
    const given = parts[part];
    if (!given) continue;
    const text = stripBom(given.text);
    const errors: ParseError[] = [];
    parseTree(text, errors, PARSE_OPTIONS);
    if (errors.length) return { ok: false, problem: describeErrors(given.uri, text, errors) };
  }
  const assembled = assembleSplitSet(parts)!;
  const definitions = assembled.definitions;
  const read = readSides(definitions.uri, assembled.text);
  if (!read.ok) return read;
  const assembledLines = new LineIndex(assembled.text);
  return {
    ok: true,
    sides: read.sides.map((side) => ({
      ...side,
      locate(node: Node): Location {
        const located = assembled.locate(rangeOf(assembledLines, node));
        if (!located)
          return {
            file: definitions.uri,
            pointer: pointerOf(node),
            range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
          };
        const prefix = `/properties/${SPLIT_PART_KEYS[located.segment.part]}`;
        const pointer = pointerOf(node);
        return {
          file: located.segment.uri,
          pointer: pointer.startsWith(prefix) ? pointer.slice(prefix.length) : pointer,
          range: located.range,
        };
      },
    })),
  };
}
