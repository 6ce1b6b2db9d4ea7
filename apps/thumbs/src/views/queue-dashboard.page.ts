import type { AppViewRoute } from '@bull-board/api/typings/app';
import { ExpressAdapter } from '@bull-board/express';
import { unavailableDependencyOf } from '@pawlink/service-kit';
import type { RequestHandler } from 'express';

/** A `<link rel="stylesheet">` whose `href` is on another host (`https://…`, `//…`). */
const FOREIGN_STYLESHEET =
  /<link\b(?=[^>]*\brel=["']?stylesheet\b)(?=[^>]*\bhref=["']?(?:https?:)?\/\/)[^>]*>[ \t]*\n?/gi;

/** bull-board's page as it renders it, without stylesheets from other hosts. */
export const withoutForeignStylesheets = (html: string): string => html.replace(FOREIGN_STYLESHEET, '');

/**
 * bull-board's Express adapter, but its entry page (the dashboard's HTML) leaves out the Google
 * Fonts stylesheet bull-board links: the dashboard's CSP allows styles from this origin only, so
 * the browser refused it anyway (a console error on every page), and loading it would tell a third
 * party who opens the dashboard. bull-board's own CSS names system fonts after IBM Plex, so the UI
 * looks the same but for the typeface.
 */
export class DashboardPageAdapter extends ExpressAdapter {
  override setEntryRoute(routeDef: AppViewRoute): ExpressAdapter {
    const page: RequestHandler = (_req, res, next) => {
      const { name, params } = routeDef.handler({ basePath: this.basePath, uiConfig: this.uiConfig });
      res.render(name, params, (error: Error | null, html: string) => {
        if (error) next(error);
        else res.send(withoutForeignStylesheets(html));
      });
    };
    this.app[routeDef.method](routeDef.route, page);
    return this;
  }

  /**
   * bull-board answers whatever its API throws with 500 `ERRORS.INTERNAL_SERVER_ERROR`. A Redis
   * that is down or stalled is rethrown instead, out of bull-board's router to the service's error
   * renderer, which answers it as on every other route: 503 1004 with its Retry-After.
   */
  override setErrorHandler(handler: Parameters<ExpressAdapter['setErrorHandler']>[0]): this {
    return super.setErrorHandler((error) => {
      if (unavailableDependencyOf(error) !== undefined) throw error;
      return handler(error);
    });
  }
}
