import { ApiFailure, api, apiBase } from '../repositories/api.repository.js';
import { rankedBars, visitsPerDayChart } from '../components/charts.js';
import { h, show } from '../components/dom.js';
import { clearErrors, describe, fieldRow, setFieldError } from '../components/form.js';
import { count, ruleCondition, tagsFrom, utc } from '../domain/format.rules.js';
import { MANAGEMENT_CODES_NOTE, managementCodes } from '../repositories/management-codes.repository.js';
import type { LinkRecord, LinkStats } from '../types/api.types.js';

const RANGES = [7, 30, 90] as const;
const EDIT_FIELD_OF: Record<number, string> = {
  1073: 'edit-url',
  1074: 'edit-credit',
  1076: 'edit-management-code',
  1077: 'edit-management-code',
  1078: 'edit-management-code',
  1087: 'edit-tags',
  1088: 'edit-password',
};

function copyButton(label: string, text: string): HTMLButtonElement {
  const button = h('button', { type: 'button', class: 'copy', 'data-copy': text }, label);
  button.addEventListener('click', () => {
    navigator.clipboard.writeText(text).then(
      () => {
        button.textContent = 'Copied!';
        setTimeout(() => (button.textContent = label), 2000);
      },
      () => {
        button.textContent = 'Copy failed';
      },
    );
  });
  return button;
}

function recordList(link: LinkRecord): HTMLElement {
  const row = (term: string, ...value: Array<Node | string>) => [h('dt', {}, term), h('dd', {}, ...value)];
  return h(
    'dl',
    { class: 'record' },
    row(
      'Short link',
      h('a', { href: link.fullURL, id: 'full-url' }, link.fullURL),
      ' ',
      copyButton('Copy short link', link.fullURL),
    ),
    row('Target', h('span', { class: 'target', id: 'target' }, link.url), ' ', copyButton('Copy target', link.url)),
    row('Credit', link.credit),
    row('Created', utc(link.createdAt)),
    row('Modified', utc(link.modifiedAt)),
    row('Expires', link.expiresAt === null ? 'never' : utc(link.expiresAt)),
    row('Max visits', link.maxVisits === null ? 'none' : count(link.maxVisits)),
    row('Visits', h('span', { id: 'visits-total' }, count(link.visits ?? 0))),
    row('Tags', h('span', { id: 'tags' }, (link.tags ?? []).join(', ') || 'none')),
    row('Password', h('span', { id: 'protected' }, link.protected ? 'yes: visitors must type it' : 'none')),
    link.rules && link.rules.length > 0
      ? row(
          'Redirect rules',
          h(
            'ol',
            { class: 'rules' },
            link.rules.map((rule) =>
              h('li', {}, `${ruleCondition(rule.when)} → `, h('span', { class: 'target' }, rule.url)),
            ),
          ),
        )
      : [],
  );
}

function qrSection(link: LinkRecord): HTMLElement {
  const qr = (format: string, size = '') =>
    new URL(`${encodeURIComponent(link.code)}/qr?format=${format}${size}`, apiBase).href;
  return h(
    'section',
    { 'aria-labelledby': 'qr-title', class: 'qr' },
    h('h2', { id: 'qr-title' }, 'QR code'),
    h('img', { src: qr('svg'), alt: `QR code of ${link.fullURL}`, width: 192, height: 192, id: 'qr-image' }),
    h(
      'p',
      {},
      h('a', { href: qr('png', '&size=1024'), download: `${link.code}.png` }, 'Download PNG'),
      ' · ',
      h('a', { href: qr('svg'), download: `${link.code}.svg` }, 'Download SVG'),
    ),
  );
}

function editSection(link: LinkRecord, onChanged: (record: LinkRecord | null) => void, notice = ''): HTMLElement {
  const known = managementCodes.get(link.code);
  const url = h('input', { type: 'url', value: link.url, required: true, maxlength: 2048 });
  const credit = h('input', { type: 'text', value: link.credit, maxlength: 50 });
  const tags = h('input', { type: 'text', value: (link.tags ?? []).join(', '), spellcheck: 'false' });
  const password = h('input', { type: 'password', autocomplete: 'new-password', maxlength: 128 });
  const code = h('input', { type: 'password', autocomplete: 'off', value: known ?? '' });
  const status = h('p', { class: 'status', role: 'status', id: 'edit-status' }, notice);
  const form = h(
    'form',
    { novalidate: true, 'aria-labelledby': 'edit-title' },
    fieldRow('edit-url', 'Target URL', url),
    fieldRow('edit-credit', 'Credit', credit),
    fieldRow('edit-tags', 'Tags', tags, 'Separated by commas or spaces; empty removes them all.'),
    fieldRow(
      'edit-password',
      'New password',
      password,
      link.protected ? 'Leave empty to keep the password.' : 'Leave empty for none.',
    ),
    fieldRow(
      'edit-management-code',
      'Management code',
      code,
      known
        ? 'Filled in: this link was created in this console during this session.'
        : 'The code you were given when the link was created.',
    ),
    h(
      'div',
      { class: 'actions' },
      h('button', { type: 'submit' }, 'Save changes'),
      h('button', { type: 'button', class: 'danger', id: 'delete' }, 'Delete link'),
    ),
    status,
  );
  const failed = (error: unknown) => {
    const field = error instanceof ApiFailure ? EDIT_FIELD_OF[error.code] : undefined;
    if (field) {
      setFieldError(form, field, describe(error));
      form.querySelector<HTMLElement>(`#${field}`)?.focus();
    } else status.textContent = describe(error);
  };
  const path = encodeURIComponent(link.code);
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    clearErrors(form);
    status.textContent = '';
    const changes: Record<string, unknown> = { managementCode: code.value.trim() };
    if (url.value.trim() !== link.url) changes.url = url.value.trim();
    if (credit.value.trim() !== link.credit) changes.credit = credit.value.trim();
    const newTags = tagsFrom(tags.value);
    if (link.tags !== undefined && newTags.join(',') !== link.tags.join(',')) changes.tags = newTags;
    if (password.value !== '') changes.password = password.value;
    api<{ data: LinkRecord }>('PATCH', path, changes).then((answer) => onChanged(answer.data), failed);
  });
  form.querySelector('#delete')!.addEventListener('click', () => {
    clearErrors(form);
    if (!window.confirm(`Delete ${link.fullURL}? It stops redirecting at once.`)) return;
    api('DELETE', path, { managementCode: code.value.trim() }).then(() => {
      managementCodes.forget(link.code);
      onChanged(null);
    }, failed);
  });
  return h(
    'section',
    { 'aria-labelledby': 'edit-title' },
    h('h2', { id: 'edit-title' }, 'Edit or delete'),
    h('p', { class: 'note' }, MANAGEMENT_CODES_NOTE),
    form,
  );
}

function visitsSection(stats: LinkStats): HTMLElement {
  const select = h(
    'select',
    { id: 'range', name: 'range' },
    RANGES.map((days) => h('option', { value: days, selected: days === 30 }, `Last ${days} days`)),
  );
  const chart = h('div', { id: 'day-chart' });
  const draw = () => show(chart, visitsPerDayChart(stats.days, Number(select.value)));
  select.addEventListener('change', draw);
  draw();
  const devices = Object.entries(stats.devices)
    .map(([label, visits]) => ({ label, visits }))
    .sort((a, b) => b.visits - a.visits || a.label.localeCompare(b.label));
  return h(
    'section',
    { 'aria-labelledby': 'visits-title' },
    h('h2', { id: 'visits-title' }, 'Visits'),
    h('p', {}, `${count(stats.visits)} counted visits in all; the charts cover the last 90 days (UTC).`),
    h('div', { class: 'field inline' }, h('label', { for: 'range' }, 'Range'), select),
    chart,
    h(
      'div',
      { class: 'breakdown' },
      rankedBars(
        'Referrers',
        'Referrer',
        stats.referrers.map((r) => ({ label: r.host, visits: r.visits })),
      ),
      rankedBars(
        'Countries',
        'Country',
        stats.countries.map((r) => ({ label: r.country, visits: r.visits })),
      ),
      rankedBars(
        'Browsers',
        'Browser',
        stats.browsers.map((r) => ({ label: r.name, visits: r.visits })),
      ),
      rankedBars(
        'Operating systems',
        'OS',
        stats.os.map((r) => ({ label: r.name, visits: r.visits })),
      ),
      rankedBars('Devices', 'Device', devices),
      stats.rules !== undefined && stats.rules.length > 0
        ? rankedBars('Redirect rules', 'Rule', [
            ...stats.rules.map((r) => ({ label: `rule ${r.index + 1}`, visits: r.visits })),
            { label: 'default', visits: stats.default ?? 0 },
          ])
        : null,
    ),
  );
}

/** A link's page: its record, QR code, edit and delete, and its visits as charts and tables. */
export function linkView(code: string, onFailure: (error: unknown) => void): HTMLElement {
  const root = h('section', { 'aria-labelledby': 'link-title' });
  const path = encodeURIComponent(code);
  const render = (link: LinkRecord, stats: LinkStats | undefined, notice?: string) => {
    show(
      root,
      h('p', {}, h('a', { href: '#/links' }, '← Your links')),
      h('h1', { id: 'link-title', tabindex: '-1' }, link.code),
      recordList(link),
      qrSection(link),
      editSection(
        link,
        (changed) => {
          if (changed) {
            render(changed, stats, 'Saved.');
            root.querySelector<HTMLElement>('#edit-url')?.focus();
          } else
            show(
              root,
              h('h1', { id: 'link-title', tabindex: '-1' }, 'Deleted'),
              h('p', { role: 'status' }, `${link.fullURL} was deleted.`),
              h('p', {}, h('a', { href: '#/links' }, 'Back to your links')),
            );
        },
        notice,
      ),
      stats ? visitsSection(stats) : h('p', {}, 'Visits are not available right now.'),
    );
  };
  show(root, h('h1', { id: 'link-title', tabindex: '-1' }, code), h('p', { role: 'status' }, 'Loading…'));
  Promise.all([
    api<{ data: LinkRecord }>('GET', `${path}.json`).catch((error: unknown) => {
      // An expired link's JSON form is 410 1083: the page then shows its visits only.
      if (error instanceof ApiFailure && error.code === 1083) return null;
      throw error;
    }),
    api<{ data: LinkStats }>('GET', `${path}/stats`),
  ])
    .then(([record, stats]) => {
      if (record) render(record.data, stats.data);
      else
        show(
          root,
          h('h1', { id: 'link-title', tabindex: '-1' }, code),
          h('p', {}, 'This link has expired.'),
          visitsSection(stats.data),
        );
    })
    .catch((error: unknown) => {
      show(root, h('h1', { id: 'link-title', tabindex: '-1' }, code), h('p', { role: 'alert' }, describe(error)));
      onFailure(error);
    });
  return root;
}
