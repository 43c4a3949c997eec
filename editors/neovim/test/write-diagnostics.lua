-- Run by neovim.test.ts as `nvim --headless -u write-diagnostics.lua`: sets up triad_templates
-- with the command in $TRIAD_CMD (JSON), opens $TRIAD_FILE, waits until the server's diagnostics
-- arrive and writes them as JSON to $TRIAD_OUT, then quits. Whatever fails is written there too.
local function run()
  vim.opt.runtimepath:append(vim.env.TRIAD_PLUGIN_DIR)
  require('triad_templates').setup({ cmd = vim.fn.json_decode(vim.env.TRIAD_CMD), cmd_cwd = vim.env.TRIAD_CWD })
  vim.cmd('edit ' .. vim.fn.fnameescape(vim.env.TRIAD_FILE))
  local arrived = vim.wait(60000, function()
    return #vim.diagnostic.get(0) > 0
  end, 50)
  local diagnostics = {}
  for _, d in ipairs(vim.diagnostic.get(0)) do
    table.insert(diagnostics, {
      lnum = d.lnum,
      col = d.col,
      end_lnum = d.end_lnum,
      end_col = d.end_col,
      severity = d.severity,
      code = d.code,
      source = d.source,
      message = d.message,
    })
  end
  local clients = {}
  for _, client in pairs(vim.lsp.buf_get_clients(0)) do
    table.insert(clients, client.name)
  end
  return { arrived = arrived, clients = clients, diagnostics = diagnostics }
end

local ok, result = pcall(run)
if not ok then
  result = { error = tostring(result) }
end
vim.fn.writefile({ vim.fn.json_encode(result) }, vim.env.TRIAD_OUT)
vim.cmd('qa!')
