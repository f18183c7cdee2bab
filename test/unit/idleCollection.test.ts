import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { IdleCollection, exposedGc } from '#server/lsp/node/idleCollection';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits (generously: timers run late on a busy machine) until the condition holds. */
async function until(condition: () => boolean, what: string) {
  for (const deadline = Date.now() + 20000; !condition(); await sleep(10)) {
    if (Date.now() > deadline) assert.fail(`timed out waiting for ${what}`);
  }
}

/** An idle collection whose collections are counted, with the young generation at rest unless `youngSize` says otherwise. */
function counted(quietMs: number, lowRateMs: number, youngSize: (collections: number) => number = () => 0) {
  let collections = 0;
  const idle = new IdleCollection(
    100,
    quietMs,
    lowRateMs,
    () => collections++,
    () => youngSize(collections),
  );
  return { idle, collections: () => collections };
}

describe('IdleCollection: garbage collected once quiet after bulk work', () => {
  test('nothing below the threshold; above it, one collection when quiet and one more later, then none', async () => {
    const { idle, collections } = counted(20, 40);
    idle.note(60);
    await sleep(150);
    assert.equal(collections(), 0, 'below the threshold');
    idle.note(60);
    await until(() => collections() === 1, 'the first collection');
    await until(() => collections() === 2, 'the second collection');
    await sleep(150);
    assert.equal(collections(), 2, 'no more until more work');
  });

  test('work meanwhile postpones the collection', async () => {
    const { idle, collections } = counted(2000, 100000);
    idle.note(200);
    for (let i = 0; i < 5; i++) {
      await sleep(10);
      idle.note();
    }
    assert.equal(collections(), 0, 'not while work goes on');
    await until(() => collections() === 1, 'the collection once quiet');
  });

  test('a little work between the two collections makes them both come again, once quiet: the second is not dropped', async () => {
    const { idle, collections } = counted(20, 200);
    idle.note(200);
    await until(() => collections() === 1, 'the first collection');
    // A re-check of one small file, or a status request, after the first: far below the threshold.
    idle.note(1);
    await sleep(10);
    idle.note();
    assert.equal(collections(), 1, 'not while work goes on');
    await until(() => collections() === 3, 'the first again once quiet, then the second');
    await sleep(400);
    assert.equal(collections(), 3, 'and no more until more work');
    idle.note(1);
    await sleep(400);
    assert.equal(collections(), 3, 'once both are done, a little work owes nothing');
  });

  test('while the young generation has not shrunk the second is tried again, a bounded number of times', async () => {
    // Shrunk at the fourth collection (the first, the second, and two more tries).
    const shrinksAt = 4;
    const { idle, collections } = counted(20, 30, (n) => (n >= shrinksAt ? 1 << 20 : 32 << 20));
    idle.note(200);
    await until(() => collections() === shrinksAt, 'the tries until it shrank');
    await sleep(300);
    assert.equal(collections(), shrinksAt, 'none once it shrank');

    const never = counted(20, 30, () => 32 << 20);
    never.idle.note(200);
    await until(() => never.collections() === 5, 'the first, the second and three more tries');
    await sleep(300);
    assert.equal(never.collections(), 5, 'bounded: no more tries');
  });

  test('V8 full collection is available without --expose-gc', () => {
    assert.equal(typeof exposedGc(), 'function');
  });
});
