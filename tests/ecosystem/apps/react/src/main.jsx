import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { Heatmaps } from './Heatmaps.tsx';

createRoot(document.getElementById('app')).render(
  <StrictMode>
    <Heatmaps />
  </StrictMode>,
);
