/**
 * `compute` run once per object and its answer kept as long as the object lives (a WeakMap). For
 * what is derived from a stored file's object, which the store replaces whole when the file
 * changes: the cached answer can never outlive the version it describes.
 */
export function memoizeByObject<K extends object, V>(compute: (key: K) => V): (key: K) => V {
  const answers = new WeakMap<K, V>();
  return (key) => {
    if (answers.has(key)) return answers.get(key) as V;
    const value = compute(key);
    answers.set(key, value);
    return value;
  };
}
