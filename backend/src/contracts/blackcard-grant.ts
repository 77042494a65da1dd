/**
 * The /blackcard document the server sends when the query's access token is valid (spec section 4,
 * /blackcard access): the invitee content is already in its HTML, so the page is granted from its
 * first paint. The build prerenders it with a placeholder for the invitee (frontend vite.config.ts,
 * `blackcard-granted`); the server checks the token and fills it in for that request only
 * (backend modules/invitations/granted-blackcard-document.ts). Any other /blackcard request gets
 * the verifying document, and the browser runs the access check itself. The content's links get
 * their hrefs (which carry the invitee) once React owns them, as on every prerendered page.
 */
export const BLACKCARD_GRANT = {
  /** Where the build writes the document, relative to the static directory. */
  document: 'pages/blackcard-granted.html',
  /** The id of the `<script type="application/json">` holding the granted invitee (Invitee JSON). */
  elementId: 'blackcard-grant',
  /** That element's body as built: the server replaces it with the invitee's JSON. */
  json: '__BLACKCARD_GRANT__',
} as const;

/** The granted invitee the document carries. */
export interface BlackcardGrant {
  token: string;
  email: string;
  name: string;
}
