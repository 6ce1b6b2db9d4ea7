import { ApiFailure, signIn } from '../repositories/api.repository.js';
import { h } from '../components/dom.js';
import { describe, fieldRow, setFieldError } from '../components/form.js';

/** Why a key was refused, in words: a key without the `shortener` flag is told so. */
function refusal(error: unknown): string {
  if (error instanceof ApiFailure && error.code === 1022)
    return 'This key does not have the shortener flag, which the console needs: ask an operator to give it the flag, or use another key. (code 1022)';
  return describe(error);
}

/** The sign-in form: a key, checked by the API like any request's. */
export function signInView(onSignedIn: () => void, notice?: string): HTMLElement {
  const key = h('input', {
    type: 'password',
    name: 'apiKey',
    autocomplete: 'off',
    spellcheck: 'false',
    required: true,
  });
  const button = h('button', { type: 'submit' }, 'Sign in');
  const form = h(
    'form',
    { class: 'sign-in', novalidate: true },
    fieldRow(
      'api-key',
      'API key',
      key,
      'An API key with the shortener flag. The console keeps it on the server for this browser session (an HttpOnly cookie), never in the page.',
    ),
    button,
  );
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const value = key.value.trim();
    if (value === '') {
      setFieldError(form, 'api-key', 'Enter an API key.');
      key.focus();
      return;
    }
    button.disabled = true;
    signIn(value)
      .then(() => {
        key.value = '';
        onSignedIn();
      })
      .catch((error: unknown) => {
        setFieldError(form, 'api-key', refusal(error));
        key.focus();
      })
      .finally(() => {
        button.disabled = false;
      });
  });
  return h(
    'section',
    { 'aria-labelledby': 'sign-in-title' },
    h('h1', { id: 'sign-in-title', tabindex: '-1' }, 'Sign in'),
    notice ? h('p', { class: 'notice', role: 'status' }, notice) : null,
    form,
  );
}
