import { Publish } from './publish.jsx';

export const metadata = { title: 'posenc with Next.js', icons: { icon: 'data:,' } };

export default function RootLayout({ children }) {
  return (
    <html lang="en">
      <body>
        {children}
        <Publish />
      </body>
    </html>
  );
}
