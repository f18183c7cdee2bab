// The template expression language of policy rules ('[concat(parameters('a'), 'b')]'): parsed into a small
// tree, then evaluated against a scope that supplies the functions. Unknown functions are reported, never guessed.
import { Unknown, type Json } from './types';

export type Expr =
  | { kind: 'literal'; value: Json }
  | { kind: 'call'; name: string; args: Expr[] }
  | { kind: 'property'; target: Expr; name: string }
  | { kind: 'index'; target: Expr; index: Expr };

/** Whether a string is an expression ('[...]' but not the escaped '[[...]'). */
export function isExpression(value: unknown): value is string {
  return typeof value === 'string' && value.length >= 2 && value[0] === '[' && value[1] !== '[' && value[value.length - 1] === ']';
}

/** A string value as the service reads it: an expression's text, or the literal with '[[' unescaped. */
export function literalOf(value: string): string {
  return value.startsWith('[[') ? value.slice(1) : value;
}

const MAX_DEPTH = 64;

class Parser {
  private pos = 0;
  private depth = 0;
  constructor(private readonly text: string) {}

  parse(): Expr {
    const expr = this.expression();
    this.space();
    if (this.pos !== this.text.length) this.fail(`unexpected '${this.text[this.pos]}'`);
    return expr;
  }

  private fail(message: string): never {
    throw new Unknown(`the expression '[${this.text}]' cannot be read: ${message} at ${this.pos + 1}`);
  }

  private space(): void {
    while (this.pos < this.text.length && /\s/.test(this.text[this.pos])) this.pos++;
  }

  private expression(): Expr {
    if (++this.depth > MAX_DEPTH) this.fail('too deeply nested');
    this.space();
    let expr = this.primary();
    for (;;) {
      this.space();
      const c = this.text[this.pos];
      if (c === '.') {
        this.pos++;
        this.space();
        expr = { kind: 'property', target: expr, name: this.identifier() };
      } else if (c === '[') {
        this.pos++;
        const index = this.expression();
        this.space();
        if (this.text[this.pos] !== ']') this.fail("expected ']'");
        this.pos++;
        expr = { kind: 'index', target: expr, index };
      } else break;
    }
    this.depth--;
    return expr;
  }

  private identifier(): string {
    const match = /^[A-Za-z_][A-Za-z0-9_]*/.exec(this.text.slice(this.pos));
    if (!match) this.fail('expected a name');
    this.pos += match[0].length;
    return match[0];
  }

  private primary(): Expr {
    const c = this.text[this.pos];
    if (c === "'") return { kind: 'literal', value: this.string() };
    const number = /^-?\d+(\.\d+)?/.exec(this.text.slice(this.pos));
    if (number) {
      this.pos += number[0].length;
      return { kind: 'literal', value: Number(number[0]) };
    }
    const name = this.identifier();
    this.space();
    if (this.text[this.pos] !== '(') {
      if (name === 'true' || name === 'false') return { kind: 'literal', value: name === 'true' };
      if (name === 'null') return { kind: 'literal', value: null };
      this.fail(`expected '(' after '${name}'`);
    }
    this.pos++;
    const args: Expr[] = [];
    this.space();
    if (this.text[this.pos] === ')') this.pos++;
    else
      for (;;) {
        args.push(this.expression());
        this.space();
        const next = this.text[this.pos++];
        if (next === ')') break;
        if (next !== ',') this.fail("expected ',' or ')'");
      }
    return { kind: 'call', name, args };
  }

  private string(): string {
    let out = '';
    this.pos++;
    for (;;) {
      if (this.pos >= this.text.length) this.fail('unterminated string');
      const c = this.text[this.pos++];
      if (c === "'") {
        if (this.text[this.pos] === "'") {
          out += "'";
          this.pos++;
        } else return out;
      } else out += c;
    }
  }
}

/** Parses the inside of an expression string ('[...]'). Throws Unknown when it is malformed. */
export function parseExpression(value: string): Expr {
  return new Parser(value.slice(1, -1)).parse();
}

/** What evaluates a call: the functions table with the scope's own functions in it. */
export interface Functions {
  call(name: string, args: Expr[], evaluate: (e: Expr) => Json): Json;
}

export function evaluateExpr(expr: Expr, functions: Functions): Json {
  const evaluate = (e: Expr): Json => evaluateExpr(e, functions);
  switch (expr.kind) {
    case 'literal':
      return expr.value;
    case 'call':
      return functions.call(expr.name, expr.args, evaluate);
    case 'property': {
      const target = evaluate(expr.target);
      if (typeof target !== 'object' || target === null || Array.isArray(target))
        throw new Unknown(`'.${expr.name}' is read on a value that is not an object`);
      const lower = expr.name.toLowerCase();
      const key = Object.keys(target).find((k) => k.toLowerCase() === lower);
      if (key === undefined) throw new Unknown(`the object has no property '${expr.name}'`);
      return target[key];
    }
    case 'index': {
      const target = evaluate(expr.target);
      const index = evaluate(expr.index);
      if (Array.isArray(target) && typeof index === 'number') {
        if (index < 0 || index >= target.length) throw new Unknown(`index ${index} is outside the array (length ${target.length})`);
        return target[index];
      }
      if (typeof target === 'object' && target !== null && !Array.isArray(target) && typeof index === 'string') {
        const key = Object.keys(target).find((k) => k.toLowerCase() === index.toLowerCase());
        if (key === undefined) throw new Unknown(`the object has no property '${index}'`);
        return target[key];
      }
      throw new Unknown('an index that does not fit the value');
    }
  }
}

/** A string value evaluated: an expression through the functions, anything else as the literal. */
export function evaluateValue(value: Json, functions: Functions): Json {
  if (typeof value === 'string') return isExpression(value) ? evaluateExpr(parseExpression(value), functions) : literalOf(value);
  return value;
}
