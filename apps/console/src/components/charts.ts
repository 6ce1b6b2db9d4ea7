import { h, svg, uid } from './dom.js';
import { count } from '../domain/format.rules.js';
import { lastDays } from '../domain/visits-per-day.rules.js';

const WIDTH = 720;
const HEIGHT = 200;
const AXIS = 28;

/**
 * "Visits per day": one bar per UTC day of the range (days without visits drawn empty), an
 * accessible name and summary, a `<title>` per bar, and the same numbers as a table.
 */
export function visitsPerDayChart(days: Array<{ date: string; visits: number }>, range: number): HTMLElement {
  const dates = lastDays(range);
  const byDate = new Map(days.map((day) => [day.date, day.visits]));
  const shown = dates.map((date) => ({ date, visits: byDate.get(date) ?? 0 }));
  const total = shown.reduce((sum, day) => sum + day.visits, 0);
  const max = Math.max(1, ...shown.map((day) => day.visits));
  const slot = (WIDTH - AXIS) / shown.length;
  const titleId = uid('chart-title');
  const descId = uid('chart-desc');
  const busiest = shown.reduce((a, b) => (b.visits > a.visits ? b : a), shown[0]!);
  const summary =
    total === 0
      ? `No visits in the last ${range} days.`
      : `${count(total)} visits in the last ${range} days; the most on ${busiest.date} (${count(busiest.visits)}).`;
  const chart = svg(
    'svg',
    {
      class: 'chart',
      viewBox: `0 0 ${WIDTH} ${HEIGHT + 20}`,
      role: 'img',
      'aria-labelledby': titleId,
      'aria-describedby': descId,
      'data-chart': 'visits-per-day',
    },
    svg('line', { class: 'axis', x1: AXIS, y1: HEIGHT, x2: WIDTH, y2: HEIGHT }),
    svg('text', { class: 'tick', x: AXIS - 4, y: 12, 'text-anchor': 'end' }, String(max)),
    svg('text', { class: 'tick', x: AXIS - 4, y: HEIGHT, 'text-anchor': 'end' }, '0'),
    svg('text', { class: 'tick', x: AXIS, y: HEIGHT + 16 }, shown[0]!.date),
    svg('text', { class: 'tick', x: WIDTH, y: HEIGHT + 16, 'text-anchor': 'end' }, shown[shown.length - 1]!.date),
    shown.map((day, i) => {
      const height = (day.visits / max) * (HEIGHT - 8);
      return svg(
        'rect',
        {
          class: 'bar',
          x: (AXIS + i * slot + slot * 0.15).toFixed(2),
          y: (HEIGHT - height).toFixed(2),
          width: (slot * 0.7).toFixed(2),
          height: height.toFixed(2),
          'data-date': day.date,
          'data-visits': day.visits,
        },
        svg('title', {}, `${day.date}: ${count(day.visits)} visit${day.visits === 1 ? '' : 's'}`),
      );
    }),
  );
  const withVisits = shown.filter((day) => day.visits > 0);
  return h(
    'figure',
    { class: 'visits-per-day' },
    h('figcaption', { id: titleId }, 'Visits per day'),
    h('p', { id: descId, class: 'summary' }, summary),
    chart,
    h(
      'details',
      {},
      h('summary', {}, 'Visits per day as a table'),
      h(
        'table',
        { 'data-table': 'visits-per-day' },
        h('caption', {}, `Visits per day, last ${range} days (days with visits)`),
        h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'Day (UTC)'), h('th', { scope: 'col' }, 'Visits'))),
        h(
          'tbody',
          {},
          withVisits.length === 0
            ? h('tr', {}, h('td', { colspan: 2 }, 'No visits.'))
            : withVisits.map((day) =>
                h('tr', {}, h('th', { scope: 'row' }, day.date), h('td', { class: 'num' }, day.visits)),
              ),
        ),
        h('tfoot', {}, h('tr', {}, h('th', { scope: 'row' }, 'Total'), h('td', { class: 'num' }, total))),
      ),
    ),
  );
}

/**
 * Ranked bars: a table (its caption is the chart's name) whose rows are the values, most visits
 * first as the API ranks them, each with its count, its share and a bar drawn to scale. The table
 * is the data; the bars only show it.
 */
export function rankedBars(name: string, column: string, rows: Array<{ label: string; visits: number }>): HTMLElement {
  const total = rows.reduce((sum, row) => sum + row.visits, 0);
  const max = Math.max(1, ...rows.map((row) => row.visits));
  const key = name.toLowerCase();
  return h(
    'table',
    { class: 'ranked', 'data-table': key },
    h('caption', {}, name),
    h(
      'thead',
      {},
      h(
        'tr',
        {},
        h('th', { scope: 'col' }, column),
        h('th', { scope: 'col' }, 'Visits'),
        h('th', { scope: 'col' }, 'Share'),
      ),
    ),
    h(
      'tbody',
      {},
      rows.length === 0
        ? h('tr', {}, h('td', { colspan: 3 }, 'No visits yet.'))
        : rows.map((row) =>
            h(
              'tr',
              {},
              h('th', { scope: 'row' }, row.label),
              h('td', { class: 'num' }, row.visits),
              h(
                'td',
                { class: 'share' },
                svg(
                  'svg',
                  { class: 'rank-bar', viewBox: '0 0 100 10', preserveAspectRatio: 'none', 'aria-hidden': 'true' },
                  svg('rect', { x: 0, y: 0, height: 10, width: ((row.visits / max) * 100).toFixed(2) }),
                ),
                h('span', {}, `${total === 0 ? 0 : Math.round((row.visits / total) * 100)}%`),
              ),
            ),
          ),
    ),
  );
}
