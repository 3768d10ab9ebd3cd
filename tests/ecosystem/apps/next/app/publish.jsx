'use client';

// Publishes what the elements drew (drawn.js), in the browser only: after hydration.
import { useEffect } from 'react';

export function Publish() {
  useEffect(() => {
    import('./drawn.js').then(({ publishDrawn }) => publishDrawn());
  }, []);
  return null;
}
