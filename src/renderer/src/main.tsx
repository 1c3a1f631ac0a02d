import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App.tsx';
import { hasBridge } from './bridge.ts';
import './styles/theme.css';
import './styles/base.css';
import './styles/layout.css';
import './styles/components.css';
import './styles/media-pieces.css';
import './styles/lists.css';
import './styles/view-compose.css';
import './styles/view-activity.css';
import './styles/view-library.css';
import './styles/library-cards.css';
import './styles/library-detail.css';
import './styles/view-settings.css';
import './styles/view-history.css';
import './styles/gallery.css';
import './styles/player.css';
import './styles/notices.css';

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root');

if (hasBridge()) {
  createRoot(container).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
} else {
  container.textContent = 'Media Task Studio could not start: the app bridge (window.studio) is missing.';
}
