import { render } from 'preact';
import { readConsoleConfig } from './shell/console-config.js';
import { Shell } from './shell/shell.js';
import './shell/styles.css';

const root = document.getElementById('app');
if (root) render(<Shell config={readConsoleConfig(document)} />, root);
