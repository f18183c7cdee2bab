import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { DocumentCache } from '#server/lsp/documentCache';

describe('DocumentCache: what the server keeps per document version', () => {
  test('a value is kept for its version only', () => {
    const cache = new DocumentCache<string>(4, 1000);
    cache.set('a', 1, 'a1', 10);
    assert.equal(cache.get('a', 1), 'a1');
    assert.equal(cache.get('a', 2), undefined);
    cache.set('a', 2, 'a2', 10);
    assert.equal(cache.get('a', 1), undefined);
    assert.equal(cache.get('a', 2), 'a2');
    assert.equal(cache.size, 1);
  });

  test('beyond the entry bound the least recently used goes first; a read counts as a use', () => {
    const cache = new DocumentCache<string>(2, 1000);
    cache.set('a', 1, 'a', 1);
    cache.set('b', 1, 'b', 1);
    assert.equal(cache.get('a', 1), 'a'); // b is now the least recently used
    cache.set('c', 1, 'c', 1);
    assert.deepEqual(cache.keys(), ['a', 'c']);
    assert.equal(cache.get('b', 1), undefined);
  });

  test('bounded by the text the values were made from; the most recent stays even when it alone is over', () => {
    const cache = new DocumentCache<string>(10, 100);
    cache.set('a', 1, 'a', 40);
    cache.set('b', 1, 'b', 40);
    cache.set('c', 1, 'c', 40);
    assert.deepEqual(cache.keys(), ['b', 'c']);
    cache.set('huge', 1, 'huge', 500);
    assert.deepEqual(cache.keys(), ['huge']);
    cache.set('d', 1, 'd', 10);
    assert.deepEqual(cache.keys(), ['d']);
    cache.set('e', 1, 'e', 10);
    assert.deepEqual(cache.keys(), ['d', 'e']);
  });

  test('a deleted document frees its share of the bound', () => {
    const cache = new DocumentCache<string>(10, 100);
    cache.set('a', 1, 'a', 60);
    cache.delete('a');
    cache.delete('never-kept');
    cache.set('b', 1, 'b', 60);
    cache.set('c', 1, 'c', 40);
    assert.deepEqual(cache.keys(), ['b', 'c']);
  });
});
