// The CSV reader of the policy-as-code framework's parameter files (service/consumers/csv.ts): RFC 4180 fields,
// quoted fields with commas, line breaks and doubled quotes, CRLF/LF/CR records, and each cell's offsets.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseCsv } from '#server/service/consumers/csv';

const values = (text: string) => parseCsv(text).records.map((r) => r.cells.map((c) => c.value));

test('plain fields, empty fields, the last record without a line break', () => {
  assert.deepEqual(values('a,b,c\n1,,3\n,,'), [
    ['a', 'b', 'c'],
    ['1', '', '3'],
    ['', '', ''],
  ]);
});

test('quoted fields hold commas, line breaks and doubled quotes', () => {
  assert.deepEqual(values('"x,y","line1\r\nline2","say ""hi""",""\n'), [['x,y', 'line1\r\nline2', 'say "hi"', '']]);
});

test('CRLF, LF and CR end records; empty lines are no records; a byte order mark is not part of the first header', () => {
  assert.deepEqual(values('\uFEFFa,b\r\n1,2\r\n\r\n3,4\r5,6\n'), [
    ['a', 'b'],
    ['1', '2'],
    ['3', '4'],
    ['5', '6'],
  ]);
});

test('each cell keeps its offsets, quotes included', () => {
  const text = 'name,"p"\r\nrow,"{""a"": 1}"\r\n';
  const [, row] = parseCsv(text).records;
  assert.deepEqual(
    row.cells.map((c) => text.slice(c.start, c.end)),
    ['row', '"{""a"": 1}"'],
  );
  assert.equal(row.cells[1].value, '{"a": 1}');
  assert.equal(text.slice(row.start, row.end), 'row,"{""a"": 1}"');
});

test('a quote not closed runs to the end of the text, and is said', () => {
  const parsed = parseCsv('a,b\n1,"open\n2,3\n');
  assert.equal(parsed.unclosedQuote, 6);
  assert.deepEqual(
    parsed.records.map((r) => r.cells.map((c) => c.value)),
    [
      ['a', 'b'],
      ['1', 'open\n2,3\n'],
    ],
  );
});

test("the framework's starter kit: a header row of quoted names, cells spanning lines", () => {
  const text = '"name","referencePath","allowedEffects","prodEffect"\n"051cba44","","override:\n  Audit,\n  Disabled","Audit"\n';
  const records = parseCsv(text).records;
  assert.equal(records.length, 2);
  assert.deepEqual(
    records[1].cells.map((c) => c.value),
    ['051cba44', '', 'override:\n  Audit,\n  Disabled', 'Audit'],
  );
});
