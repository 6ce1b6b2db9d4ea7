import { ApiFailure } from '../repositories/api.repository.js';
import { h, type Child } from './dom.js';

/** A labelled control with its hint and the place its error message goes (`<id>-error`). */
export function fieldRow(
  id: string,
  label: string,
  control: HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement,
  hint?: string,
): HTMLElement {
  control.id = id;
  const described = [hint ? `${id}-hint` : '', `${id}-error`].filter(Boolean).join(' ');
  control.setAttribute('aria-describedby', described);
  return h(
    'div',
    { class: 'field' },
    h('label', { for: id }, label),
    hint ? h('p', { class: 'hint', id: `${id}-hint` }, hint) : null,
    control,
    h('p', { class: 'error', id: `${id}-error`, hidden: true }),
  );
}

/** Shows `message` next to the field `id` (and marks it invalid), or clears it with undefined. */
export function setFieldError(root: ParentNode, id: string, message: string | undefined): void {
  const error = root.querySelector<HTMLElement>(`#${id}-error`);
  const control = root.querySelector<HTMLElement>(`#${id}`);
  if (!error) return;
  error.textContent = message ?? '';
  error.hidden = message === undefined;
  if (message === undefined) control?.removeAttribute('aria-invalid');
  else control?.setAttribute('aria-invalid', 'true');
}

/** Clears every field error of `root`. */
export function clearErrors(root: ParentNode): void {
  for (const error of root.querySelectorAll<HTMLElement>('.error')) {
    error.textContent = '';
    error.hidden = true;
  }
  for (const control of root.querySelectorAll('[aria-invalid]')) control.removeAttribute('aria-invalid');
}

/** An API failure as a person reads it: its message and its contract code. */
export function describe(error: unknown): string {
  if (error instanceof ApiFailure) return error.code > 0 ? `${error.message} (code ${error.code})` : error.message;
  return error instanceof Error ? error.message : String(error);
}

/** A status line for results and failures that concern the whole form (announced politely). */
export const statusLine = (id: string, ...children: Child[]): HTMLElement =>
  h('p', { id, class: 'status', role: 'status' }, ...children);

/** A `datetime-local` value (the browser's zone) as the API's ISO 8601 with a zone. */
export function isoFromLocal(value: string): string {
  return new Date(value).toISOString();
}
