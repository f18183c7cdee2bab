// The one "did you mean" of the project (server/src/service/text.ts): the rules' suggestions and the CLI's
// (a mistyped command, subcommand, option, format, cloud or rule) come from it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { closestMatch, editDistance, typoDistance } from '#server/service/text';

test('a swap of two neighbours is one edit', () => {
  assert.equal(typoDistance('qouta', 'quota', 3), 1);
  assert.equal(typoDistance('usgae', 'usage', 3), 1);
  // A plain edit distance would count two: too far for a five-letter word (at most one edit).
  assert.equal(closestMatch('qouta', ['quota', 'rules', 'model']), 'quota');
  assert.equal(closestMatch('metdata', ['metadata']), 'metadata');
});

test('the distance is bounded: past max it says max + 1, whatever the real distance', () => {
  assert.equal(typoDistance('abcdef', 'uvwxyz', 2), 3);
  assert.equal(typoDistance('a', 'abcdefgh', 2), 3);
  assert.equal(typoDistance('abcd', 'abcd', 0), 0);
  // A swap at the end of a long word is still found after rows that were over max.
  assert.equal(typoDistance('abcdefgh', 'abcdefhg', 1), 1);
});

test('without swaps (editDistance, which classifies documents by their keys) a swap is two edits', () => {
  assert.equal(editDistance('qouta', 'quota', 3), 2);
  assert.equal(editDistance('policyDefinitons', 'policyDefinitions', 2), 1);
  assert.equal(editDistance('abcdef', 'uvwxyz', 2), 3);
});

test('close enough: a third of the length, at least one edit; leading dashes of an option not counted', () => {
  assert.equal(closestMatch('--subscriptoin', ['--subscription', '--scope']), '--subscription');
  assert.equal(closestMatch('rulez', ['rules', 'cloud']), 'rules');
  // 'rule' -> 'ruby' is two edits: too many for four letters, dashes or not.
  assert.equal(closestMatch('--rule', ['--ruby']), undefined);
  assert.equal(closestMatch('xyz', ['json', 'text', 'sarif']), undefined);
  assert.equal(closestMatch('', ['a', 'b']), undefined);
  assert.equal(closestMatch('  ', ['a', 'b']), undefined);
});

test('case does not count; the first of equally close candidates wins; the candidate comes back as written', () => {
  assert.equal(closestMatch('AZURECLOUD', ['AzureCloud', 'AzureChinaCloud']), 'AzureCloud');
  assert.equal(closestMatch('bat', ['cat', 'hat']), 'cat');
  assert.equal(closestMatch('PS7033', ['PS7003', 'PS7030']), 'PS7003');
});
