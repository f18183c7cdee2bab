// The bounded pattern engine against independent implementations, on seeded random patterns: globs against
// picomatch, regular expressions against JavaScript's RegExp, and the size bound against the program re2js
// builds. Apart from patterns.test.ts (which runs first in the \`node\` mutation target): these take seconds.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import picomatch from 'picomatch';
import { RE2JS } from 're2js';
import { boundedRegExp, globMatcher, regexProgramSize } from '#server/service/patterns';

// Random patterns (seeded) against picomatch. Left out, each a documented difference: a leading './' (the
// callers strip it before matching, picomatch strips it itself), negated classes `[!…]` and `[^…]` (ours never
// match a leading dot without `dot`, as bash; picomatch's do), empty brace alternatives (`{,a}`), `**` inside a
// name (ours: one star, as bash; picomatch's crosses folders), and a literal '.' beside a POSIX class or a range
// (picomatch reads it as any character there).
test('globs: the same answers as picomatch on 6,000 random patterns, outside the documented differences', () => {
  let seed = 20261129;
  const random = () => (seed = (Math.imul(seed, 1103515245) + 12345) & 0x7fffffff) / 0x80000000;
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)];
  const tokens = ['a', 'b', '.', 'x', '*', '?', '[ab]', '[a-c]', '{a,b}', '{x,y/z}', '\\*', '/**/', '/', '-', '1'];
  const more = [
    ...['[[:digit:]]', '{a}', '[]a]', '{a,{b,c}}', '\\{', '[[:alpha:]]', '[a-]', '[\\]]', '\\[', '[x-z1]', '{a..c}', '{1..3}'],
    ...['[[:alnum:]]', '[[:lower:]]', '[[:upper:]]', '[[:space:]]', '[[:xdigit:]]', '[[:word:]]', '{a\\,b,c}', '\\!', '[a\\]]', '[\\a]'],
  ];
  const names = ['a', 'b', 'ab', 'ba', 'aab', '.a', '.b', 'x', 'y', 'z', '1', '2', 'a.json', '.x.json', '*', 'a-b', 'abc', 'c', ']', '['];
  names.push('{', 'Z', '5', '_', ' ', 'G', 'f', 'a,b', '!a');
  let compared = 0;
  for (let i = 0; i < 6000; i++) {
    const length = 1 + Math.floor(random() * 5);
    let pattern = random() < 0.1 ? '!' : '';
    for (let k = 0; k < length; k++) pattern += random() < 0.7 ? pick(tokens) : pick(more);
    pattern = pattern.replace(/\/\/+/g, '/');
    const differs =
      /^!?\.\//.test(pattern) ||
      /\[!|\[\^|\{,|,\}/.test(pattern) ||
      pattern.split('/').some((part) => part.includes('**') && part !== '**') ||
      (/\[\[:|\.\./.test(pattern) && /(^|[^.])\.(?!\.)/.test(pattern.replace(/\{[^}]*\.\.[^}]*\}/g, '')));
    if (differs) continue;
    const dot = i % 2 === 0;
    const ours = globMatcher(pattern, { dot });
    const theirs = picomatch(pattern, { dot });
    for (let k = 0; k < 12; k++) {
      const file = Array.from({ length: 1 + Math.floor(random() * 3) }, () => pick(names)).join('/');
      assert.equal(ours(file), theirs(file), `${JSON.stringify(pattern)} on ${JSON.stringify(file)} (dot: ${dot})`);
      compared++;
    }
  }
  assert.ok(compared > 40_000, `${compared} compared`);
});

// Random expressions (seeded) in the syntax RE2 and JavaScript share: the same answers as a JavaScript RegExp.
test('regular expressions: the same answers as JavaScript on 3,000 random expressions', () => {
  let seed = 7;
  const random = () => (seed = (Math.imul(seed, 1103515245) + 12345) & 0x7fffffff) / 0x80000000;
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)];
  const atoms = ['a', 'b', '.', '[ab]', '[^a]', 'a*', '(a|b)', 'b+', 'a?', 'x{2}', '[a-c]{1,3}', '^', '$', '\\d', '\\w', '\\s'];
  const more = ['(?:ab)*', '(a|bc|d)+', '[0-9]{2,4}', '(?:a{2}){3}', '\\.', '-', 'a{0,2}?', '(?i)A'];
  const characters = ['a', 'b', 'c', '1', '2', ' ', '.', '-', 'x', 'd', 'A'];
  let compared = 0;
  for (let i = 0; i < 3000; i++) {
    let pattern = '';
    for (let k = 1 + Math.floor(random() * 6); k > 0; k--) pattern += random() < 0.7 ? pick(atoms) : pick(more);
    if (pattern.lastIndexOf('(?i)') > 0) continue;
    const ours = boundedRegExp(pattern);
    const theirs = pattern.startsWith('(?i)') ? new RegExp(pattern.slice(4), 'i') : new RegExp(pattern);
    for (let k = 0; k < 10; k++) {
      const input = Array.from({ length: Math.floor(random() * 12) }, () => pick(characters)).join('');
      assert.equal(ours.test(input), theirs.test(input), `/${pattern}/ on ${JSON.stringify(input)}`);
      compared++;
    }
  }
  assert.ok(compared > 25_000, `${compared} compared`);
});

// The size bound against what re2js really builds (its program's instructions), on random expressions: never
// so low that re2js builds a program four times larger than the bound thinks, never so high that an expression
// of ordinary size is refused.
test('regular expressions: the program size stays within a factor of the program re2js builds', () => {
  let seed = 11;
  const random = () => (seed = (Math.imul(seed, 1103515245) + 12345) & 0x7fffffff) / 0x80000000;
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)];
  const parts = ['a', 'b', '.', '[ab]', '[^a]', '*', '+', '?', 'x{2}', '{3,5}', '[a-c]{1,3}', '^', '$', '\\d', '\\w', '\\p{L}'];
  const more = ['(?:', '(', '(?P<n>', ')', '|', '[\\]a]', '{2}', '\\.', 'abc', '{0,9}', '*?', '{2,}'];
  let compared = 0;
  for (let i = 0; i < 8000; i++) {
    let pattern = '';
    for (let k = 1 + Math.floor(random() * 10); k > 0; k--) pattern += random() < 0.6 ? pick(parts) : pick(more);
    let instructions: number;
    try {
      // The compiled program is re2js's own (not its public interface): read here as the measure to compare with.
      instructions = (RE2JS.compile(pattern) as unknown as { re2Input: { prog: { inst: unknown[] } } }).re2Input.prog.inst.length;
    } catch {
      continue; // not an expression RE2 takes
    }
    const size = regexProgramSize(pattern);
    assert.ok(instructions <= 4 * size + 8, `/${pattern}/: re2js builds ${instructions} instructions, the bound counts ${size}`);
    assert.ok(size <= 2 * instructions + 8, `/${pattern}/: the bound counts ${size}, re2js builds only ${instructions}`);
    compared++;
  }
  assert.ok(compared > 1500, `${compared} compared`);
});
