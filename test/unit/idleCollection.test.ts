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

describe('IdleCollection: garbage collected once quiet after bulk work', () => {
  test('nothing below the threshold; above it, one collection when quiet and one more later, then none', async () => {
    let collections = 0;
    const idle = new IdleCollection(
      100,
      20,
      40,
      () => collections++,
      () => 0,
    );
    idle.note(60);
    await sleep(150);
    assert.equal(collections, 0, 'below the threshold');
    idle.note(60);
    await until(() => collections === 1, 'the first collection');
    await until(() => collections === 2, 'the second collection');
    await sleep(150);
    assert.equal(collections, 2, 'no more until more work');
  });

  test('work meanwhile postpones the collection', async () => {
    let collections = 0;
    const idle = new IdleCollection(
      100,
      2000,
      100000,
      () => collections++,
      () => 0,
    );
    idle.note(200);
    for (let i = 0; i < 5; i++) {
      await sleep(10);
      idle.note();
    }
    assert.equal(collections, 0, 'not while work goes on');
    await until(() => collections === 1, 'the collection once quiet');
  });

  test('a little work between the two collections makes them both come again, once quiet: the second is not dropped', async () => {
    let collections = 0;
    const idle = new IdleCollection(
      100,
      20,
      200,
      () => collections++,
      () => 0,
    );
    idle.note(200);
    await until(() => collections === 1, 'the first collection');
    // A re-check of one small file, or a status request, after the first: far below the threshold.
    idle.note(1);
    await sleep(10);
    idle.note();
    assert.equal(collections, 1, 'not while work goes on');
    await until(() => collections === 3, 'the first again once quiet, then the second');
    await sleep(400);
    assert.equal(collections, 3, 'and no more until more work');
    idle.note(1);
    await sleep(400);
    assert.equal(collections, 3, 'once both are done, a little work owes nothing');
  });

  test('while the young generation has not shrunk the second is tried again, a bounded number of times', async () => {
    let collections = 0;
    // Shrunk at the fourth collection (the first, the second, and two more tries).
    const shrinksAt = 4;
    const idle = new IdleCollection(
      100,
      20,
      30,
      () => collections++,
      () => (collections >= shrinksAt ? 1 << 20 : 32 << 20),
    );
    idle.note(200);
    await until(() => collections === shrinksAt, 'the tries until it shrank');
    await sleep(300);
    assert.equal(collections, shrinksAt, 'none once it shrank');

    let stubborn = 0;
    const never = new IdleCollection(
      100,
      20,
      30,
      () => stubborn++,
      () => 32 << 20,
    );
    never.note(200);
    await until(() => stubborn === 5, 'the first, the second and three more tries');
    await sleep(300);
    assert.equal(stubborn, 5, 'bounded: no more tries');
  });

  test('V8 full collection is available without --expose-gc', () => {
    assert.equal(typeof exposedGc(), 'function');
  });
});
