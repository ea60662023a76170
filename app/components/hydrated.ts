import { useEffect, useState } from "react";

/** True once React has hydrated: JS-only enhancements render only then. */
export function useHydrated() {
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  return hydrated;
}
