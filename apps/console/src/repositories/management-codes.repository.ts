const STORE = 'pawlink-console:management-codes';

function all(): Record<string, string> {
  try {
    return JSON.parse(sessionStorage.getItem(STORE) ?? '{}') as Record<string, string>;
  } catch {
    return {};
  }
}

/**
 * The management codes of links created in this console, kept in this tab's sessionStorage only
 * (gone when the tab closes; never sent anywhere but to the API when editing or deleting).
 */
export const managementCodes = {
  get: (code: string): string | undefined => all()[code],
  remember(code: string, managementCode: string): void {
    sessionStorage.setItem(STORE, JSON.stringify({ ...all(), [code]: managementCode }));
  },
  forget(code: string): void {
    const codes = all();
    delete codes[code];
    sessionStorage.setItem(STORE, JSON.stringify(codes));
  },
};

/** What the pages say about it. */
export const MANAGEMENT_CODES_NOTE =
  'The console keeps the management codes of links created here for this browser tab only (session storage): close the tab and they are gone, so copy them somewhere safe.';
