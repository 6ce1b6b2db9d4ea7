import { defineConfig } from 'vite';

// Relative asset URLs (the page lives at SHORTENER_URL/console/, maybe under a proxy's prefix);
// no inline scripts or styles (the page's CSP allows only 'self'), no module-preload polyfill.
export default defineConfig({
  base: './',
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
    target: 'es2022',
    sourcemap: false,
  },
});
