import { ApiFailure, api } from '../repositories/api.repository.js';
import { h, show } from '../components/dom.js';
import { clearErrors, describe, fieldRow, isoFromLocal, setFieldError } from '../components/form.js';
import { tagsFrom } from '../domain/format.rules.js';
import { MANAGEMENT_CODES_NOTE, managementCodes } from '../repositories/management-codes.repository.js';
import type { BulkItem, LinkRecord } from '../types/api.types.js';

/** The contract's most items per bulk request (docs/api.md §2); a key's own limit may be lower (1086 says so). */
export const BULK_MAX = 100;

/** Which field a create failure concerns, by its contract code. */
const FIELD_OF: Record<number, string> = {
  1070: 'code',
  1071: 'code',
  1072: 'code',
  1073: 'url',
  1074: 'credit',
  1081: 'expires',
  1082: 'max-visits',
  1087: 'tags',
  1088: 'password',
};

function remember(link: LinkRecord): void {
  if (link.managementCode) managementCodes.remember(link.code, link.managementCode);
}

/** A created link as the page reports it: the short link (to its page), and its management code. */
function created(link: LinkRecord, label: string): HTMLElement {
  return h(
    'span',
    {},
    label,
    h('a', { href: `#/links/${encodeURIComponent(link.code)}` }, link.fullURL),
    link.managementCode ? [' — management code ', h('code', { class: 'management-code' }, link.managementCode)] : null,
  );
}

function singleForm(): HTMLElement {
  const url = h('input', { type: 'url', name: 'url', required: true, maxlength: 2048, inputmode: 'url' });
  const code = h('input', { type: 'text', name: 'code', maxlength: 50, autocomplete: 'off', spellcheck: 'false' });
  const credit = h('input', { type: 'text', name: 'credit', maxlength: 50 });
  const expires = h('input', { type: 'datetime-local', name: 'expiresAt' });
  const maxVisits = h('input', { type: 'number', name: 'maxVisits', min: 1, step: 1, inputmode: 'numeric' });
  const tags = h('input', { type: 'text', name: 'tags', autocomplete: 'off', spellcheck: 'false' });
  const password = h('input', { type: 'password', name: 'password', autocomplete: 'new-password', maxlength: 128 });
  const editable = h('input', { type: 'checkbox', name: 'editable', id: 'single-editable', checked: true });
  const result = h('div', { class: 'result', role: 'status', id: 'single-result' });
  const form = h(
    'form',
    { novalidate: true, 'aria-labelledby': 'single-title' },
    fieldRow('url', 'URL', url),
    fieldRow('code', 'Code (optional)', code, 'Letters, digits and -, up to 50; empty for a random one.'),
    fieldRow('credit', 'Credit (optional)', credit, 'Up to 50 characters; "Unknown" when empty.'),
    fieldRow('expires', 'Expires at (optional)', expires, 'Your local time.'),
    fieldRow('max-visits', 'Max visits (optional)', maxVisits),
    fieldRow('tags', 'Tags (optional)', tags, 'Up to 10, separated by commas or spaces: a-z, 0-9 and -.'),
    fieldRow(
      'password',
      'Password (optional)',
      password,
      'Visitors must type it before they are sent on (8 to 128 characters).',
    ),
    h(
      'div',
      { class: 'field check' },
      editable,
      h('label', { for: 'single-editable' }, 'Editable (you get a management code to edit or delete it)'),
    ),
    h('button', { type: 'submit' }, 'Create'),
    result,
  );
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    clearErrors(form);
    result.replaceChildren();
    const body: Record<string, unknown> = { url: url.value.trim() };
    if (code.value.trim() !== '') body.code = code.value.trim();
    if (credit.value.trim() !== '') body.credit = credit.value.trim();
    if (expires.value !== '') {
      const iso = isoFromLocal(expires.value);
      if (Number.isNaN(Date.parse(iso))) return setFieldError(form, 'expires', 'Not a date and time.');
      body.expiresAt = iso;
    }
    if (maxVisits.value !== '') body.maxVisits = Number(maxVisits.value);
    if (tags.value.trim() !== '') body.tags = tagsFrom(tags.value);
    if (password.value !== '') body.password = password.value;
    api<{ data: LinkRecord }>('POST', `create?editable=${editable.checked}`, body)
      .then((answer) => {
        remember(answer.data);
        show(result, created(answer.data, 'Short link: '));
      })
      .catch((error: unknown) => {
        const field = error instanceof ApiFailure ? FIELD_OF[error.code] : undefined;
        if (field) {
          setFieldError(form, field, describe(error));
          form.querySelector<HTMLElement>(`#${field}`)?.focus();
        } else show(result, h('span', { class: 'failure' }, describe(error)));
      });
  });
  return h('section', { 'aria-labelledby': 'single-title' }, h('h2', { id: 'single-title' }, 'One link'), form);
}

function bulkForm(): HTMLElement {
  const urls = h('textarea', { name: 'urls', rows: 6, spellcheck: 'false' });
  const editable = h('input', { type: 'checkbox', id: 'bulk-editable', checked: true });
  const results = h('ol', { class: 'bulk-results', id: 'bulk-results' });
  const status = h('p', { class: 'status', role: 'status', id: 'bulk-status' });
  const form = h(
    'form',
    { novalidate: true, 'aria-labelledby': 'bulk-title' },
    fieldRow('bulk-urls', 'URLs, one a line', urls, `Up to ${BULK_MAX} (your key's limit may be lower).`),
    h('div', { class: 'field check' }, editable, h('label', { for: 'bulk-editable' }, 'Editable')),
    h('button', { type: 'submit' }, 'Create all'),
    status,
    results,
  );
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    clearErrors(form);
    results.replaceChildren();
    status.textContent = '';
    const lines = urls.value
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => line !== '');
    if (lines.length === 0) return setFieldError(form, 'bulk-urls', 'Paste at least one URL.');
    if (lines.length > BULK_MAX)
      return setFieldError(form, 'bulk-urls', `${lines.length} lines: at most ${BULK_MAX} a request.`);
    api<{ data: BulkItem[] }>('POST', `create/bulk?editable=${editable.checked}`, {
      links: lines.map((line) => ({ url: line })),
    })
      .then((answer) => {
        const made = answer.data.filter((item) => item.success).length;
        status.textContent = `${made} of ${lines.length} created.`;
        show(
          results,
          answer.data.map((item, i) => {
            if (item.success) remember(item.data);
            return h(
              'li',
              { class: item.success ? 'ok' : 'failure' },
              h('span', { class: 'source' }, lines[i] ?? ''),
              ' → ',
              item.success
                ? created(item.data, item.status === 200 ? 'Already shortened: ' : 'Created ')
                : `${item.error} (code ${item.code})`,
            );
          }),
        );
      })
      .catch((error: unknown) => {
        setFieldError(form, 'bulk-urls', describe(error));
        urls.focus();
      });
  });
  return h('section', { 'aria-labelledby': 'bulk-title' }, h('h2', { id: 'bulk-title' }, 'Many links'), form);
}

/** Create: one link with every option, or many (one URL a line); each result and error in place. */
export function createView(): HTMLElement {
  return h(
    'section',
    { 'aria-labelledby': 'create-title' },
    h('h1', { id: 'create-title', tabindex: '-1' }, 'Create links'),
    h('p', { class: 'note' }, MANAGEMENT_CODES_NOTE),
    singleForm(),
    bulkForm(),
  );
}
