/** What code that uses secrets may see of the store: values by name, and all values for redaction. */
export interface SecretsReader {
  /** The decrypted value, or undefined when the secret is not set. Never log it. */
  get(name: string): string | undefined;
  has(name: string): boolean;
  /** Every value currently set, for redaction of results and logs. */
  values(): string[];
}
