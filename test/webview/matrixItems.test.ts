import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MatrixItems, type MatrixItem } from '../../webview-ui/matrix/items';
import { matrixModel } from './support/matrixModels';

/** Every line as "REQ" for a header (with its shown/closed counts) or the behavior's id. */
const lines = (items: MatrixItems) =>
  Array.from({ length: items.length }, (_, i) => {
    const it = items.at(i) as MatrixItem;
    return it.kind === 'requirement' ? `${it.requirement.id} ${it.shown}/${it.shownClosed}` : `  ${it.row.behavior} <${(items.at(it.group) as { requirement: { id: string } }).requirement.id}`;
  });

describe('matrix grid lines (MatrixItems)', () => {
  it('puts each requirement over its behaviors, made on demand, with nothing outside the list', () => {
    const model = matrixModel(25);
    const items = MatrixItems.of(model, model.rows, false);
    assert.equal(items.length, 25 + 3);
    const closed = (req: string) => model.rows.filter((r) => r.requirement === req && r.closed).length;
    assert.deepEqual(lines(items).slice(0, 3), [`REQ-001 10/${closed('REQ-001')}`, '  REQ-001-B01 <REQ-001', '  REQ-001-B02 <REQ-001']);
    assert.deepEqual(lines(items).slice(11, 13), [`REQ-002 10/${closed('REQ-002')}`, '  REQ-002-B01 <REQ-002']);
    assert.equal(lines(items)[27], '  REQ-003-B05 <REQ-003');
    for (const i of [-1, 28, 1.5, NaN]) assert.equal(items.at(i), undefined, `nothing at ${i}`);
    assert.equal(items.indexOfBehavior('REQ-002-B01'), 12);
    assert.equal(items.indexOfBehavior('REQ-009-B01'), -1);
    assert.equal(MatrixItems.EMPTY.length, 0);
  });

  it('regroups rows that do not come in requirement order, and shows rows under a requirement the coverage list lacks after the others', () => {
    const model = matrixModel(4);
    model.requirements.push({ id: 'REQ-002', requiredCategories: [], coveredCategories: [], missingCategories: [], behaviors: 1, closed: 0 });
    const [a, b, c, d] = model.rows;
    b.requirement = 'REQ-002';
    d.requirement = 'REQ-404';
    const items = MatrixItems.of(model, [b, a, d, c], false);
    assert.deepEqual(
      lines(items).map((l) => l.split(' <')[0]),
      [
        'REQ-001 2/' + [a, c].filter((r) => r.closed).length,
        `  ${a.behavior}`,
        `  ${c.behavior}`,
        `REQ-002 1/${Number(b.closed)}`,
        `  ${b.behavior}`,
        `REQ-404 1/${Number(d.closed)}`,
        `  ${d.behavior}`,
      ],
    );
    assert.equal(items.indexOfBehavior(d.behavior), 6);
  });

  it('keeps the header of a requirement without behaviors unless a filter is on, and drops one whose behaviors are all filtered out', () => {
    const model = matrixModel(3);
    model.requirements.unshift({ id: 'REQ-000', requiredCategories: ['happy-path'], coveredCategories: [], missingCategories: ['happy-path'], behaviors: 0, closed: 0 });
    assert.deepEqual(
      lines(MatrixItems.of(model, model.rows, false)).map((l) => l.trim().split(' ')[0]),
      ['REQ-000', 'REQ-001', 'REQ-001-B01', 'REQ-001-B02', 'REQ-001-B03'],
    );
    const shown = [model.rows[1]];
    const filtered = MatrixItems.of(model, shown, true);
    assert.deepEqual(lines(filtered), [`REQ-001 1/${Number(shown[0].closed)}`, '  REQ-001-B02 <REQ-001']);
    assert.equal(MatrixItems.of(model, [], true).length, 0);
  });
});
