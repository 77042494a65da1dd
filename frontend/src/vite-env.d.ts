/// <reference types="vite/client" />

interface ImportMetaEnv {
  readonly VITE_GA4_ID?: string;
  readonly VITE_META_PIXEL_ID?: string;
  readonly VITE_FIRSTPROMOTER_ID?: string;
  readonly VITE_PROGRAM_APP_URL?: string;
  readonly VITE_MEMBERS_REGISTER_URL?: string;
  readonly VITE_APP_DOWNLOAD_URL?: string;
}

interface ImportMeta {
  readonly env: ImportMetaEnv;
}
