/** JSON that cannot end the `<script>` element it sits in, nor open a comment there. */
export const scriptSafeJson = (value: unknown): string =>
  JSON.stringify(value).replaceAll('<', '\\u003c').replaceAll('>', '\\u003e').replaceAll('&', '\\u0026');
