// The page's second module script in the Vite apps: publishes what the elements drew (drawn.js).
import { publishDrawn } from './drawn.js';

publishDrawn();
