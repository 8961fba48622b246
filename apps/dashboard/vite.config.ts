import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

/** Where `npm run control-plane` listens by default; the dev server forwards API calls there. */
const CONTROL_PLANE = 'http://127.0.0.1:8080';

export default defineConfig({
  base: '/',
  plugins: [react()],
  build: { outDir: 'dist', emptyOutDir: true, sourcemap: true },
  server: {
    proxy: {
      '/v1': CONTROL_PLANE,
      '/api': CONTROL_PLANE,
    },
  },
});
