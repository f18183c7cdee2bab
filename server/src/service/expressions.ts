import { stringContent, type Node } from './json';

/**
 * The expression language of policy and template string values: a string that starts with '[' and
 * ends with ']' is an expression, '[[' escapes a literal '['. In an ARM template, '[...]' is evaluated
 * at deployment and '[[...]' reaches the policy engine as the policy expression '[...]'.
 */
export type ExpressionLevel = 'policy' | 'template';

export interface ParameterCall {
  /** The parameter name as written. */
  name: string;
  /** Document offsets of the name inside its quotes. */
  start: number;
  end: number;
  level: ExpressionLevel;
}

export interface ExpressionInfo {
  level: ExpressionLevel;
  calls: ParameterCall[];
  /** A parameters() call whose argument is computed: it could name any parameter. */
  dynamicParameterCall?: boolean;
  error?: { message: string; start: number; end: number };
}

/** Reads a JSON string node's content and maps content offsets back to document offsets. */
class StringSource {
  readonly content: string;
  private readonly map: number[] | undefined;
  private readonly base: number;

  constructor(text: string, node: Node) {
    const { start, end } = stringContent(text, node);
    this.base = start;
    const raw = text.slice(start, end);
    this.content = node.value as string;
    if (raw === this.content) return;
    // Escapes present: record where each decoded character starts in the raw text.
    const map: number[] = [];
    for (let i = 0; i < raw.length; i++) {
      map.push(i);
      if (raw[i] === '\\') i += raw[i + 1] === 'u' ? 5 : 1;
    }
    map.push(raw.length);
    this.map = map;
  }

  offset(index: number): number {
    return this.base + (this.map ? (this.map[index] ?? this.map[this.map.length - 1]) : index);
  }
}

/** Whether a string value is evaluated as an expression at the given level. */
export function expressionLevelOf(value: string, inTemplate: boolean): ExpressionLevel | undefined {
  if (value.length < 2 || value[0] !== '[' || value[value.length - 1] !== ']') return undefined;
  // In a template '[[' is the policy expression '[...]', unless it escapes again: '[[[x]' reaches the service as
  // the literal '[[x]' (a nested deployment's own expression, evaluated later, as the monitoring baseline's sets pass them).
  if (value[1] === '[') return inTemplate && value[2] !== '[' ? 'policy' : undefined;
  return inTemplate ? 'template' : 'policy';
}

/** True for a string that the template engine evaluates at deployment: its value is not known here. */
export function isTemplateExpression(node: Node | undefined, inTemplate: boolean): boolean {
  return !!node && node.type === 'string' && isTemplateExpressionValue(node.value as string, inTemplate);
}

/** isTemplateExpression of a string value read without its node. */
export function isTemplateExpressionValue(value: string, inTemplate: boolean): boolean {
  return inTemplate && expressionLevelOf(value, true) === 'template';
}

/**
 * What an ARM template makes of a string value when it deploys it: `"[[...]"` loses its first '[' (it
 * escapes the policy expression `"[...]"`); any other literal string is itself; `undefined` for a
 * `"[...]"` expression, which the template evaluates at deployment (its value is not known here).
 * The one reading of the escape that the version check and `deploy` of a fragment share.
 */
export function templateOutputOf(value: string): string | undefined {
  const level = expressionLevelOf(value, true);
  if (level === 'template') return undefined;
  return level === 'policy' ? value.slice(1) : value;
}

/**
 * A value (a resource's properties) as its template sends it to the service: every escaped string
 * unescaped (templateOutputOf). The strings the template would evaluate are left as they are and listed.
 */
export function asTemplateSendsIt(value: unknown): { value: unknown; unescaped: number; templateExpressions: string[] } {
  let unescaped = 0;
  const templateExpressions: string[] = [];
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') {
      const out = templateOutputOf(v);
      if (out === undefined) templateExpressions.push(v);
      else if (out !== v) unescaped++;
      return out ?? v;
    }
    if (Array.isArray(v)) return v.map(walk);
    if (v && typeof v === 'object') {
      const result: Record<string, unknown> = {};
      for (const [key, item] of Object.entries(v)) result[key] = walk(item);
      return result;
    }
    return v;
  };
  return { value: walk(value), unescaped, templateExpressions };
}

const MAX_NESTING = 64;

class ExpressionParser {
  private pos: number;
  private depth = 0;
  readonly calls: ParameterCall[] = [];
  dynamicParameterCall = false;

  constructor(
    private readonly source: StringSource,
    private readonly s: string,
    start: number,
    private readonly end: number,
    private readonly level: ExpressionLevel,
  ) {
    this.pos = start;
  }

  fail(message: string, at = this.pos): never {
    throw new ExpressionError(message, at, Math.min(Math.max(at + 1, at), this.end));
  }

  private skipSpace() {
    while (this.pos < this.end && /\s/.test(this.s[this.pos])) this.pos++;
  }

  parse() {
    this.skipSpace();
    if (this.pos >= this.end) this.fail('Expression is empty');
    this.expression();
    this.skipSpace();
    if (this.pos < this.end) this.fail(`Unexpected '${this.s[this.pos]}' after the end of the expression`);
  }

  private expression() {
    if (++this.depth > MAX_NESTING) this.fail('Expression nests too deeply');
    this.primary();
    for (;;) {
      this.skipSpace();
      const ch = this.s[this.pos];
      if (ch === '.' && this.pos < this.end) {
        this.pos++;
        this.skipSpace();
        if (!this.identifier()) this.fail("Property name expected after '.'");
      } else if (ch === '[' && this.pos < this.end) {
        this.pos++;
        this.skipSpace();
        this.expression();
        this.skipSpace();
        if (this.s[this.pos] !== ']' || this.pos >= this.end) this.fail("Closing ']' expected");
        this.pos++;
      } else break;
    }
    this.depth--;
  }

  private identifier(): string | undefined {
    const match = /^[A-Za-z_$][\w$-]*/.exec(this.s.slice(this.pos, Math.min(this.end, this.pos + 256)));
    if (!match) return undefined;
    this.pos += match[0].length;
    return match[0];
  }

  /** Returns the literal's content range when the primary is a string literal. */
  private primary(): { value: string; start: number; end: number } | undefined {
    this.skipSpace();
    const ch = this.s[this.pos];
    if (this.pos >= this.end) this.fail('Value expected');
    if (ch === "'") return this.stringLiteral();
    const number = /^-?\d+(\.\d+)?/.exec(this.s.slice(this.pos, Math.min(this.end, this.pos + 64)));
    if (number) {
      this.pos += number[0].length;
      return undefined;
    }
    const nameStart = this.pos;
    let name = this.identifier();
    if (!name) this.fail(`Unexpected '${ch}': a function call, string or number is expected`);
    // Namespaced user-defined functions: ns.func(...)
    while (this.s[this.pos] === '.' && /[A-Za-z_]/.test(this.s[this.pos + 1] ?? '') && this.lookAheadCall()) {
      this.pos++;
      name += '.' + this.identifier();
    }
    this.skipSpace();
    if (this.s[this.pos] !== '(' || this.pos >= this.end) this.fail(`'(' expected after function name '${name}'`, nameStart);
    this.pos++;
    const args: Array<{ value: string; start: number; end: number } | undefined> = [];
    this.skipSpace();
    if (this.s[this.pos] === ')') {
      this.pos++;
    } else {
      for (;;) {
        args.push(this.argument());
        this.skipSpace();
        const next = this.s[this.pos];
        if (this.pos >= this.end) this.fail(`Closing ')' expected for '${name}('`);
        this.pos++;
        if (next === ')') break;
        if (next !== ',') this.fail(`',' or ')' expected in the arguments of '${name}'`, this.pos - 1);
      }
    }
    if (name!.toLowerCase() === 'parameters' && !args[0]) this.dynamicParameterCall = true;
    if (name!.toLowerCase() === 'parameters' && args[0]) {
      const literal = args[0];
      // An empty name is marked with its quotes, so that the range can be seen.
      const empty = literal.start === literal.end;
      this.calls.push({
        name: literal.value,
        start: this.source.offset(empty ? literal.start - 1 : literal.start),
        end: this.source.offset(empty ? literal.end + 1 : literal.end),
        level: this.level,
      });
    }
    return undefined;
  }

  private lookAheadCall(): boolean {
    const rest = this.s.slice(this.pos + 1, Math.min(this.end, this.pos + 257));
    return /^[A-Za-z_$][\w$-]*\s*\(/.test(rest);
  }

  private argument(): { value: string; start: number; end: number } | undefined {
    this.skipSpace();
    const startPos = this.pos;
    if (this.s[this.pos] === "'") {
      const literal = this.stringLiteral();
      this.skipSpace();
      // A bare literal argument, not the start of a longer expression.
      if (this.s[this.pos] === ',' || this.s[this.pos] === ')') return literal;
      this.pos = startPos;
    }
    this.expression();
    return undefined;
  }

  private stringLiteral(): { value: string; start: number; end: number } {
    const start = this.pos + 1;
    let value = '';
    let i = start;
    for (;;) {
      if (i >= this.end) this.fail('Unterminated string literal: close it with a single quote', this.pos);
      if (this.s[i] === "'") {
        if (this.s[i + 1] === "'" && i + 1 < this.end) {
          value += "'";
          i += 2;
          continue;
        }
        break;
      }
      value += this.s[i++];
    }
    this.pos = i + 1;
    return { value, start, end: i };
  }
}

class ExpressionError extends Error {
  constructor(
    message: string,
    readonly start: number,
    readonly end: number,
  ) {
    super(message);
  }
}

/** The commonest expression by far: exactly one parameter reference. */
const SIMPLE_REFERENCE = /^\[\[?parameters\('([^']*)'\)\]$/;

/** Parses the expression in a string node, if it is one. */
export function analyzeExpression(text: string, node: Node, inTemplate: boolean): ExpressionInfo | undefined {
  if (node.type !== 'string') return undefined;
  const value = node.value as string;
  const level = expressionLevelOf(value, inTemplate);
  if (!level) return undefined;
  const simple = SIMPLE_REFERENCE.exec(value);
  // Without escapes in the raw text, offsets in the value are offsets in the document.
  if (simple && node.length === value.length + 2) {
    const start = node.offset + 1 + value.indexOf("'") + 1;
    return { level, calls: [{ name: simple[1], start, end: start + simple[1].length, level }] };
  }
  const source = new StringSource(text, node);
  const bodyStart = value[1] === '[' ? 2 : 1;
  const parser = new ExpressionParser(source, value, bodyStart, value.length - 1, level);
  try {
    parser.parse();
    return { level, calls: parser.calls, dynamicParameterCall: parser.dynamicParameterCall };
  } catch (error) {
    if (!(error instanceof ExpressionError)) throw error;
    return {
      level,
      calls: parser.calls,
      error: { message: error.message, start: source.offset(error.start), end: source.offset(Math.max(error.end, error.start + 1)) },
    };
  }
}
