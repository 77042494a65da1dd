/// <reference types="vite/client" />

interface ImportMetaEnv {
  readonly VITE_GA4_ID?: string;
  readonly VITE_META_PIXEL_ID?: string;
  readonly VITE_FIRSTPROMOTER_ID?: string;
}

interface ImportMeta {
  readonly env: ImportMetaEnv;
}
