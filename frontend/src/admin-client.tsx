import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router-dom';
import { AdminApp } from './app/admin/admin-app';
import './styles/base.css';

// admin.html, the document of every /admin page. Unlike the funnel's entries it starts no
// analytics and no referral tracking, and the server's CSP for /admin allows scripts of this origin only.
const container = document.getElementById('root');
if (!container) throw new Error('The page has no #root element');

createRoot(container).render(
  <StrictMode>
    <BrowserRouter>
      <AdminApp />
    </BrowserRouter>
  </StrictMode>,
);
