// What the user reads of a service's answer (client/src/api/errors.ts), edge by edge, as mutation testing
// found them untested (docs/mutation.md): text made safe for a terminal and cut with a note, secrets
// redacted in every form they come back in, Retry-After in its three forms, and the error message built
// from each of the spec's error bodies.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { escapeControls, excerptOf, redact, retryAfterSeconds, safeText, ServiceError, serviceErrorOf } from '#api';

describe('text from the service, made safe', () => {
  test('control characters are escaped, newlines and tabs too unless multiline; DEL and C1 as well', () => {
    assert.equal(safeText('a\u001b[31mb\rc\nd\te\u007ff\u0085g'), 'a\\u001b[31mb\\u000dc\\u000ad\\u0009e\\u007ff\\u0085g');
    assert.equal(safeText('a\nb\tc\u001bd', { multiline: true }), 'a\nb\tc\\u001bd');
    assert.equal(escapeControls('a\nb\u0000c\u009fd'), 'a\nb\\u0000c\\u009fd');
  });

  test('a text longer than the limit is cut and says how much was left out; one of exactly the limit is whole', () => {
    assert.equal(safeText('abcdef', { max: 4 }), 'abcd… (2 more characters not shown)');
    assert.equal(safeText('abcd', { max: 4 }), 'abcd');
    assert.equal(safeText('x'.repeat(2001)), `${'x'.repeat(2000)}… (1 more characters not shown)`);
    assert.equal(safeText('x'.repeat(2000)), 'x'.repeat(2000));
  });

  test('an excerpt: runs of control characters become one space, trimmed, cut at 200 characters with an ellipsis', () => {
    assert.equal(excerptOf('\n  a\r\n\u0000b  \t'), 'a b');
    assert.equal(excerptOf('y'.repeat(201)), `${'y'.repeat(200)}…`);
    assert.equal(excerptOf('y'.repeat(200)), 'y'.repeat(200));
  });
});

describe('secrets redacted', () => {
  test('as sent, in any letter case, URL-encoded and with + for spaces; secrets shorter than 4 characters are not looked for', () => {
    const secret = 'Ab c/D+e';
    const text = `x ${secret} ${secret.toLowerCase()} ${encodeURIComponent(secret)} ${encodeURIComponent(secret).replace(/%20/g, '+')} y`;
    assert.equal(redact(text, [secret]), 'x [redacted] [redacted] [redacted] [redacted] y');
    assert.equal(redact('abc abc', ['abc']), 'abc abc');
    assert.equal(redact('abcd', ['abcd']), '[redacted]');
    assert.equal(redact('a tok%25 b', ['tok%']), 'a [redacted] b', 'the longest form first: the encoded one holds the secret as sent');
    assert.equal(redact('token1 token2', [undefined, 'token1', 'token2']), '[redacted] [redacted]');
    assert.equal(redact('a.b a-b', ['a.b.']), 'a.b a-b', 'a secret is matched as text, not as a pattern');
  });

  test('many secrets over time are all still redacted (the pattern cache is bounded, not wrong)', () => {
    for (let i = 0; i < 100; i++) assert.equal(redact(`tok-${i}-secret`, [`tok-${i}-secret`]), '[redacted]');
    assert.equal(redact('tok-3-secret', ['tok-3-secret']), '[redacted]');
  });
});

describe('Retry-After', () => {
  const now = Date.parse('Wed, 21 Oct 2015 07:28:00 GMT');
  const at = (value: string | string[] | undefined) => retryAfterSeconds({ 'retry-after': value }, now);

  test('whole seconds, with spaces around; the first of several values', () => {
    assert.equal(at('120'), 120);
    assert.equal(at(' 5 '), 5);
    assert.equal(at('0'), 0);
    assert.equal(at(['7', '9']), 7);
  });

  test('an HTTP date in each of its three forms, rounded up; a date past is 0', () => {
    assert.equal(at('Wed, 21 Oct 2015 07:28:30 GMT'), 30);
    assert.equal(at('Wednesday, 21-Oct-15 07:28:01 GMT'), 1);
    // asctime has no zone: Date.parse reads it as local time, so the expected seconds are computed the same way.
    const asctime = 'Wed Oct 21 07:28:10 2015';
    assert.equal(retryAfterSeconds({ 'retry-after': asctime }, Date.parse(asctime) - 10_000), 10);
    assert.equal(at('Wed,  21 Oct 2015 07:28:30 GMT'), 30, 'more than one space');
    assert.equal(retryAfterSeconds({ 'retry-after': 'Wed, 21 Oct 2015 07:28:00 GMT' }, now - 1500), 2);
    assert.equal(at('Tue, 20 Oct 2015 07:28:00 GMT'), 0);
  });

  test('anything else is no Retry-After at all', () => {
    for (const value of [
      '',
      '   ',
      '-1',
      '1.5',
      '5s',
      'soon',
      'Mon garbage',
      'Monday',
      '2015-10-21T07:28:30Z',
      'x Wed, 21 Oct 2015 07:28:30 GMT',
      'Mon,2015',
      'Wed,21 Oct 2015 07:28:30 GMT',
    ]) {
      assert.equal(at(value), undefined, JSON.stringify(value));
    }
    assert.equal(at(undefined), undefined);
  });
});

describe('the error a user reads, from each body the spec knows', () => {
  const facts = (status: number, body: unknown, more: Partial<Parameters<typeof serviceErrorOf>[0]> = {}) =>
    serviceErrorOf({
      status,
      headers: {},
      body: typeof body === 'string' ? body : JSON.stringify(body),
      request: 'GET /x',
      area: 'policy',
      secrets: [],
      ...more,
    });

  test('policy: code, message, details with their targets, target and request id; status words', () => {
    const error = facts(
      400,
      {
        error: {
          code: 'InvalidX',
          message: 'bad',
          target: 'props',
          details: [{ code: 'D1', target: 't1', message: 'm1' }, { message: 'm2' }],
        },
      },
      { headers: { 'x-ms-request-id': 'rid-1' } },
    );
    assert.equal(error.message, "InvalidX (400): bad [D1 at 't1': m1] [?: m2] (target 'props', request id rid-1)");
    assert.deepEqual(
      [error.code, error.serviceMessage, error.shape, error.target, error.requestId],
      ['InvalidX', 'bad', 'policy', 'props', 'rid-1'],
    );
    assert.equal(facts(404, { error: { message: 'gone' } }).message, 'Http404 (404): gone');
    assert.equal(facts(409, { error: { code: 'C' } }).message, 'C (409): no message');
    assert.equal(facts(400, { error: { code: 'C', message: 'm' } }, { area: 'metadata' }).shape, 'metadata');
  });

  test('details nested under moreDetails, additional info, and a bound on nesting', () => {
    let deep: Record<string, unknown> = { code: 'L12', message: 'deepest' };
    for (let i = 11; i >= 1; i--) deep = { code: `L${i}`, message: 'm', details: [deep] };
    const error = facts(400, {
      error: { code: 'E', message: 'top', moreDetails: [deep], additionalInfo: [{ type: 'PolicyViolation', info: { a: 1 } }, 5] },
    });
    let level = error.details[0];
    let depth = 1;
    while (level.details?.length) {
      level = level.details[0];
      depth++;
    }
    assert.equal(depth, 8, 'detail levels below the eighth are left out');
    assert.equal(error.details[0].code, 'L1');
    const info = facts(400, {
      error: {
        code: 'E',
        message: 'm',
        details: [[1], { code: 'D' }],
        additionalInfo: [{ type: 'PolicyViolation', info: { a: 1 } }, 5, [2]],
      },
    });
    assert.equal(info.message, 'E (400): m [D: ]', 'a detail that is not an object is left out; one without a message has an empty one');
    const withInfo = facts(400, {
      error: {
        code: 'E',
        message: 'm',
        details: [{ code: 'D', message: 'd', additionalInfo: [{ type: 'PolicyViolation', info: { a: 1 } }, 5, [2]] }],
      },
    });
    assert.deepEqual(
      withInfo.details[0].additionalInfo,
      [{ type: 'PolicyViolation', info: { a: 1 } }],
      'additional info: its objects, with type and info',
    );
  });

  test('eventstream: errorCode, the request id of the body, the related resource', () => {
    const error = facts(
      404,
      {
        errorCode: 'ItemNotFound',
        message: 'no item',
        requestId: 'body-rid',
        relatedResource: { resourceId: 'r-1', resourceType: 'Eventstream' },
      },
      { headers: { 'x-ms-request-id': 'header-rid' } },
    );
    assert.equal(error.message, 'ItemNotFound (404): no item (related resource Eventstream r-1, request id body-rid)');
    assert.deepEqual([error.shape, error.requestId], ['eventstream', 'body-rid']);
    assert.equal(facts(404, { errorCode: 'X', message: 'm', relatedResource: {} }).message, 'X (404): m');
    assert.equal(
      facts(404, { errorCode: 'X', message: 'm', relatedResource: { resourceId: 'r-2' } }).message,
      'X (404): m (related resource r-2)',
    );
    assert.equal(facts(404, { errorCode: 'X', message: 'm', requestId: 5 }, { headers: { 'request-id': 'h' } }).requestId, 'h');
  });

  test('a body that is no error response is said to be one, with an excerpt; the status is named in words when known', () => {
    assert.equal(facts(502, '').message, 'The service answered 502 Bad Gateway to GET /x with an empty body');
    assert.equal(facts(502, '  \n').message, 'The service answered 502 Bad Gateway to GET /x with an empty body');
    assert.equal(
      facts(500, 'null').message,
      'The service answered 500 Internal Server Error to GET /x with JSON that is not an error response: "null"',
    );
    assert.deepEqual(facts(500, 'null').details, []);
    assert.deepEqual(new ServiceError('x', 400, 'C', '', 'policy').details, []);
    assert.deepEqual(new ServiceError('x', 400, 'C', '', 'policy').earlierStatuses, []);
    assert.equal(facts(418, 'teapot\n').message, 'The service answered 418 to GET /x with a body that is not JSON: "teapot"');
    assert.equal(
      facts(500, { error: { code: 5 } }).message,
      'The service answered 500 Internal Server Error to GET /x with JSON that is not an error response: "{"error":{"code":5}}"',
    );
    assert.equal(
      facts(500, [1], { headers: { 'x-request-id': 'q' } }).message,
      'The service answered 500 Internal Server Error to GET /x with JSON that is not an error response: "[1]" (request id q)',
    );
    assert.equal(facts(400, { error: 'text' }).code, 'UnexpectedResponse');
  });

  test('the secrets and the control characters of an answer never reach the message', () => {
    const error = facts(
      401,
      {
        error: {
          code: 'Bad\u001b[2J',
          message: 'token SECRET-123 refused\r\n',
          target: 'SECRET-123',
          details: [{ code: 'x', message: 'SECRET-123', target: 'y\u0007' }],
        },
      },
      { secrets: ['SECRET-123'] },
    );
    assert.equal(
      error.message,
      "Bad\\u001b[2J (401): token [redacted] refused\\u000d\\u000a [x at 'y\\u0007': [redacted]] (target '[redacted]')",
    );
    assert.equal(error.details[0].message, '[redacted]');
  });
});
