export interface MediaServerBlockOptions {
  mediaDir: string;
  listen: string;
  accessLog?: string;
}

export interface MediaNginxConfOptions {
  mediaDir: string;
  port: number;
  runDir: string;
  host?: string;
  user?: string;
}

export declare const MEDIA_TYPES: Readonly<Record<string, string>>;
export declare function unprivilegedNginxUser(passwd?: string, group?: string): string;
export declare function renderMediaServerBlock(opts: MediaServerBlockOptions): string;
export declare function renderMediaNginxConf(opts: MediaNginxConfOptions): string;
export declare function renderComposeMediaConf(): string;
