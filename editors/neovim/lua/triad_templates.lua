-- Attaches Triad's device-template language server (`triad templates lsp --stdio`) to
-- *.ndst.json, *.ndst.yml and *.ndst.yaml buffers, with Neovim's built-in LSP client.
-- Works with Neovim 0.7 and later; needs no plugin. Put this folder (editors/neovim) on the
-- runtimepath, then:
--
--   require('triad_templates').setup()
--
-- Options (all optional):
--   cmd          the server command; default { 'npx', '--no-install', 'triad', 'templates', 'lsp', '--stdio' }
--   root_markers files or folders that mark a project's root, nearest first wins for each marker in
--                turn; default { 'package-lock.json', 'package.json', '.git' }
--   cmd_cwd      where the command runs; default the project root of the buffer's file
local M = {}

local PATTERNS = { '*.ndst.json', '*.ndst.yml', '*.ndst.yaml' }

local options = {
  cmd = { 'npx', '--no-install', 'triad', 'templates', 'lsp', '--stdio' },
  root_markers = { 'package-lock.json', 'package.json', '.git' },
  cmd_cwd = nil,
}

-- One server per project root.
local clients = {}

-- The folder holding the first marker found above `file`, else the file's folder.
local function root_of(file)
  local dir = vim.fn.fnamemodify(file, ':p:h')
  for _, marker in ipairs(options.root_markers) do
    local found = vim.fn.findfile(marker, dir .. ';')
    if found == '' then
      found = vim.fn.finddir(marker, dir .. ';')
    end
    if found ~= '' then
      return (vim.fn.fnamemodify(found, ':p:h'):gsub('/%.git/?$', ''))
    end
  end
  return dir
end

local function running(id)
  local client = id and vim.lsp.get_client_by_id(id)
  return client ~= nil and not client.is_stopped()
end

--- Attaches the server to buffer `bufnr` (0: the current one), starting it for the buffer's project if needed.
function M.attach(bufnr)
  bufnr = (bufnr == nil or bufnr == 0) and vim.api.nvim_get_current_buf() or bufnr
  local root = root_of(vim.api.nvim_buf_get_name(bufnr))
  if not running(clients[root]) then
    clients[root] = vim.lsp.start_client({
      name = 'triad_templates',
      cmd = options.cmd,
      cmd_cwd = options.cmd_cwd or root,
      root_dir = root,
    })
  end
  if clients[root] then
    vim.lsp.buf_attach_client(bufnr, clients[root])
  end
end

--- Sets the options and attaches the server to template buffers, those open now and those opened later.
function M.setup(opts)
  options = vim.tbl_extend('force', options, opts or {})
  local group = vim.api.nvim_create_augroup('TriadTemplates', { clear = true })
  vim.api.nvim_create_autocmd({ 'BufReadPost', 'BufNewFile' }, {
    group = group,
    pattern = PATTERNS,
    callback = function(args)
      M.attach(args.buf)
    end,
  })
  for _, bufnr in ipairs(vim.api.nvim_list_bufs()) do
    local name = vim.api.nvim_buf_get_name(bufnr)
    if vim.api.nvim_buf_is_loaded(bufnr) and (name:match('%.ndst%.ya?ml$') or name:match('%.ndst%.json$')) then
      M.attach(bufnr)
    end
  end
end

return M
