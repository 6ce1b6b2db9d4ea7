import { api } from '../repositories/api.repository.js';
import { h, show } from '../components/dom.js';
import { describe, fieldRow } from '../components/form.js';
import { count, expiry, utc } from '../domain/format.rules.js';
import type { LinksPage } from '../types/api.types.js';

const PAGE_SIZE = 20;

/**
 * "Your links": the key's links from `GET /links`, newest first, `PAGE_SIZE` a page; search by
 * `q`; next and previous pages by the API's cursors (the console keeps the cursors it was given,
 * so "Previous" asks for the page it showed before).
 */
export function linksView(onFailure: (error: unknown) => void, initialQuery = '', initialTag = ''): HTMLElement {
  const cursors: Array<string | undefined> = [undefined];
  let query = initialQuery;
  let tag = initialTag;
  const search = h('input', { type: 'search', name: 'q', maxlength: 200, value: initialQuery });
  const tagInput = h('input', { type: 'text', name: 'tag', maxlength: 32, value: initialTag, spellcheck: 'false' });
  const form = h(
    'form',
    { class: 'search', role: 'search' },
    fieldRow('links-q', 'Search code, target or credit', search),
    fieldRow('links-tag', 'Tag', tagInput),
    h('button', { type: 'submit' }, 'Search'),
  );
  const status = h('p', { class: 'status', role: 'status', id: 'links-status' });
  const body = h('div', { class: 'table-wrap' });
  const previous = h('button', { type: 'button', disabled: true }, 'Previous');
  const next = h('button', { type: 'button', disabled: true }, 'Next');

  async function load(): Promise<void> {
    const params = new URLSearchParams({ limit: String(PAGE_SIZE) });
    const cursor = cursors[cursors.length - 1];
    if (cursor !== undefined) params.set('cursor', cursor);
    if (query !== '') params.set('q', query);
    if (tag !== '') params.set('tag', tag);
    status.textContent = 'Loading…';
    let page: LinksPage;
    try {
      page = (await api<{ data: LinksPage }>('GET', `links?${params}`)).data;
    } catch (error) {
      status.textContent = describe(error);
      onFailure(error);
      return;
    }
    const pageNumber = cursors.length;
    status.textContent =
      page.links.length === 0
        ? query === ''
          ? 'No links yet: create one.'
          : `No links match “${query}”.`
        : `Page ${pageNumber}: ${page.links.length} link${page.links.length === 1 ? '' : 's'}${query ? ` matching “${query}”` : ''}${tag ? ` tagged ${tag}` : ''}.`;
    show(
      body,
      h(
        'table',
        { class: 'links' },
        h('caption', {}, 'Your links'),
        h(
          'thead',
          {},
          h(
            'tr',
            {},
            ['Code', 'Target', 'Created', 'Visits', 'Expiry', 'Tags'].map((name) => h('th', { scope: 'col' }, name)),
          ),
        ),
        h(
          'tbody',
          {},
          page.links.map((link) =>
            h(
              'tr',
              {},
              h('th', { scope: 'row' }, h('a', { href: `#/links/${encodeURIComponent(link.code)}` }, link.code)),
              h('td', { class: 'target' }, link.url),
              h('td', {}, utc(link.createdAt)),
              h('td', { class: 'num' }, count(link.visits ?? 0)),
              h('td', {}, expiry(link)),
              h('td', { class: 'tags' }, (link.tags ?? []).join(', ')),
            ),
          ),
        ),
      ),
    );
    previous.disabled = cursors.length <= 1;
    next.disabled = page.next === null;
    next.dataset.cursor = page.next ?? '';
  }

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    query = search.value.trim();
    tag = tagInput.value.trim();
    cursors.splice(1);
    const params = new URLSearchParams();
    if (query !== '') params.set('q', query);
    if (tag !== '') params.set('tag', tag);
    history.replaceState(null, '', params.size === 0 ? '#/links' : `#/links?${params}`);
    void load();
  });
  next.addEventListener('click', () => {
    if (!next.dataset.cursor) return;
    cursors.push(next.dataset.cursor);
    void load();
  });
  previous.addEventListener('click', () => {
    if (cursors.length <= 1) return;
    cursors.pop();
    void load();
  });
  void load();
  return h(
    'section',
    { 'aria-labelledby': 'links-title' },
    h('h1', { id: 'links-title', tabindex: '-1' }, 'Your links'),
    h('p', {}, h('a', { href: '#/create' }, 'Create links')),
    form,
    status,
    body,
    h('nav', { class: 'pager', 'aria-label': 'Pages of links' }, previous, next),
  );
}
