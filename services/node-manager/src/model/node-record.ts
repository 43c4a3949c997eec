/** A stored node. */
export interface NodeRecord {
  readonly id: string;
  readonly name: string;
  readonly familyId: string;
  readonly host: string;
  /** The node's cookie in clear (stored sealed, see `CookieCipher`): pass it to the node only. */
  readonly cookie: string;
  readonly domainId: string;
  readonly state: string;
  readonly tref: string;
  readonly pluginsOpts: readonly unknown[];
  readonly deleted: boolean;
}
