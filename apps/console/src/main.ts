import './style.css';
import { needsSignIn, signOut } from './repositories/api.repository.js';
import { show } from './components/dom.js';
import { createView } from './views/create.page.js';
import { linkView } from './views/link.page.js';
import { linksView } from './views/links.page.js';
import { signInView } from './views/sign-in.page.js';

const main = document.getElementById('main')!;
const nav = document.getElementById('nav')!;

/** Shows the sign-in form instead of the page when a request found no usable key (none, ended, revoked). */
function onFailure(error: unknown): void {
  if (!needsSignIn(error)) return;
  nav.hidden = true;
  show(
    main,
    signInView(() => route(), (error as Error).message.includes('required') ? undefined : (error as Error).message),
  );
}

/** Puts focus on the new page's heading, so keyboard and screen-reader users start there. */
function focusHeading(): void {
  main.querySelector<HTMLElement>('h1')?.focus();
}

/** `#/links[?q=…]`, `#/links/<code>`, `#/create`; anything else is the list. */
function route(): void {
  nav.hidden = false;
  const hash = decodeURIComponent(window.location.hash.replace(/^#\/?/, ''));
  const [path = '', query = ''] = hash.split('?');
  const link = /^links\/(.+)$/.exec(path);
  if (link) show(main, linkView(link[1]!, onFailure));
  else if (path === 'create') show(main, createView());
  else {
    const params = new URLSearchParams(query);
    show(main, linksView(onFailure, params.get('q') ?? '', params.get('tag') ?? ''));
  }
  for (const a of nav.querySelectorAll('a'))
    if (a.getAttribute('href') === `#/${path}`) a.setAttribute('aria-current', 'page');
    else a.removeAttribute('aria-current');
  focusHeading();
}

document.getElementById('sign-out')!.addEventListener('click', () => {
  signOut()
    .catch(() => undefined)
    .finally(() => {
      sessionStorage.clear();
      nav.hidden = true;
      show(
        main,
        signInView(() => route(), 'Signed out.'),
      );
      focusHeading();
    });
});

window.addEventListener('hashchange', route);
route();
