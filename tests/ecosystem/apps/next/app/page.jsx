import { loadPosenc } from 'posenc';
import { Heatmap } from './heatmap.jsx';

// A server component that reads no request: Next renders it once, at build time, and serves the
// table in the prerendered HTML.
export default async function Page() {
  const posenc = await loadPosenc();
  const table = posenc.sinusoidal({ seqLen: 3, dModel: 8 });
  const rows = [0, 1, 2].map((pos) => ({
    pos,
    cells: Array.from(table.subarray(pos * 8, (pos + 1) * 8), (value, col) => ({ col, value })),
  }));
  return (
    <main>
      <table id="server-table">
        <tbody>
          {rows.map(({ pos, cells }) => (
            <tr key={pos}>
              {cells.map(({ col, value }) => (
                <td key={col}>{value}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
      <Heatmap />
    </main>
  );
}
