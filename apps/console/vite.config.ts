import { defineConfig } from 'vite';

// Preact through esbuild's automatic JSX runtime: no Babel preset needed (docs/decisions/0019).
export default defineConfig({
  esbuild: { jsx: 'automatic', jsxImportSource: 'preact' },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    // The service-kit helper serves dist/assets with immutable cache headers: names must be hashed.
    assetsDir: 'assets',
    reportCompressedSize: true,
  },
});
