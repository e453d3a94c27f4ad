/// <reference types="vite/client" />

interface ImportMetaEnv {
  readonly VITE_TEST_CREDENTIAL?: string;
  /** Origin of the API server when it is not the page's own (default: same origin). */
  readonly VITE_API_ENDPOINT?: string;
}
