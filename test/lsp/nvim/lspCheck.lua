-- Run by test/lsp/neovim.test.ts inside `nvim --headless --clean`: Neovim's own LSP client (0.7 or later)
-- starts the policy set language server, opens the fixture and asks what a person would ask. Everything it
-- sees goes, unjudged, into a JSON file that the Node.js test asserts on, so that a failure reads clearly.
-- Inputs (environment): POLICYSET_NVIM_FIXTURE, POLICYSET_NVIM_RESULT, POLICYSET_NVIM_SERVER (the server
-- script) and POLICYSET_NVIM_NODE (the node executable).

local TIMEOUT_MS = 15000
local result = { nvim = vim.version(), steps = {} }
local result_path = os.getenv('POLICYSET_NVIM_RESULT')

local function write_result()
  local file = assert(io.open(result_path, 'w'))
  file:write(vim.fn.json_encode(result))
  file:close()
end

-- 0-based line and UTF-16 character (the fixture is ASCII) of the nth occurrence of `needle`, plus `shift`.
local function find(bufnr, needle, nth, shift)
  local lines = vim.api.nvim_buf_get_lines(bufnr, 0, -1, false)
  local seen = 0
  for index, line in ipairs(lines) do
    local from = 1
    while true do
      local at = string.find(line, needle, from, true)
      if not at then break end
      seen = seen + 1
      if seen == (nth or 1) then
        return { line = index - 1, character = at - 1 + (shift or 0) }
      end
      from = at + 1
    end
  end
  error('not in the fixture: ' .. needle .. ' #' .. tostring(nth or 1))
end

local function request(client, bufnr, name, method, params)
  local response, failure = client.request_sync(method, params, TIMEOUT_MS, bufnr)
  local step = { method = method, params = params }
  if response == nil then
    step.failure = failure or 'no response (the request could not be sent)'
  else
    step.error = response.err
    step.result = response.result
  end
  result.steps[name] = step
  return step
end

local function main()
  local fixture = assert(os.getenv('POLICYSET_NVIM_FIXTURE'), 'POLICYSET_NVIM_FIXTURE is not set')
  vim.cmd('edit ' .. vim.fn.fnameescape(fixture))
  local bufnr = vim.api.nvim_get_current_buf()
  vim.bo[bufnr].filetype = 'json'
  result.uri = vim.uri_from_bufnr(bufnr)

  local client_id = vim.lsp.start_client({
    name = 'policyset',
    cmd = { os.getenv('POLICYSET_NVIM_NODE') or 'node', assert(os.getenv('POLICYSET_NVIM_SERVER')), '--stdio' },
    root_dir = vim.fn.fnamemodify(fixture, ':h'),
    on_exit = function(code, signal)
      result.server_exit = { code = code, signal = signal }
    end,
  })
  assert(client_id, 'vim.lsp.start_client did not start the server')
  assert(vim.lsp.buf_attach_client(bufnr, client_id), 'vim.lsp.buf_attach_client failed')
  local client = vim.lsp.get_client_by_id(client_id)
  result.server_pid = client.rpc.pid
  result.initialized = vim.wait(TIMEOUT_MS, function()
    return client.initialized == true
  end, 20)
  if not result.initialized then error('the server did not answer initialize within ' .. TIMEOUT_MS .. ' ms') end
  result.server_capabilities = client.server_capabilities

  -- Push diagnostics: Neovim 0.7 announces no pull capability, so the server must publish them.
  vim.wait(TIMEOUT_MS, function()
    return #vim.diagnostic.get(bufnr) > 0
  end, 20)
  result.diagnostics = {}
  for _, d in ipairs(vim.diagnostic.get(bufnr)) do
    table.insert(result.diagnostics, { lnum = d.lnum, col = d.col, code = d.code, message = d.message, severity = d.severity, source = d.source })
  end
  result.undeclared_line = find(bufnr, '"Undeclared"').line

  local document = { uri = result.uri }

  -- Completion inside the value of metadata.strongType (just after its opening quote).
  request(client, bufnr, 'strongType', 'textDocument/completion', {
    textDocument = document,
    position = find(bufnr, '"strongType": "location"', 1, #'"strongType": "'),
    context = { triggerKind = 1 },
  })

  -- Completion inside groupNames (just after the opening quote of "Undeclared").
  request(client, bufnr, 'groupNames', 'textDocument/completion', {
    textDocument = document,
    position = find(bufnr, '"Undeclared"', 1, 1),
    context = { triggerKind = 1 },
  })

  -- Hover on the parameter name inside [parameters('effect')].
  request(client, bufnr, 'hover', 'textDocument/hover', {
    textDocument = document,
    position = find(bufnr, "[parameters('effect')]", 1, #"[parameters('" + 2),
  })

  -- Definition of the group reference "Network" in the second reference's groupNames.
  result.group_declaration_line = find(bufnr, '{ "name": "Network"').line
  request(client, bufnr, 'definition', 'textDocument/definition', {
    textDocument = document,
    position = find(bufnr, '"Storage", "Network"', 1, #'"Storage", "' + 3),
  })

  -- References of the parameter 'effect', asked on its declaration.
  local declaration = find(bufnr, '"effect": {', 1, 3)
  result.parameter_declaration_line = declaration.line
  result.parameter_use_lines = { find(bufnr, "[parameters('effect')]", 1).line, find(bufnr, "[parameters('effect')]", 2).line }
  request(client, bufnr, 'references', 'textDocument/references', {
    textDocument = document,
    position = declaration,
    context = { includeDeclaration = true },
  })

  -- Rename of the group "Network", asked on its first use; then Neovim applies the edit to the buffer.
  local rename = request(client, bufnr, 'rename', 'textDocument/rename', {
    textDocument = document,
    position = find(bufnr, '["Network", "Undeclared"]', 1, 4),
    newName = 'Perimeter',
  })
  if rename.result then
    vim.lsp.util.apply_workspace_edit(rename.result, client.offset_encoding or 'utf-16')
    result.text_after_rename = table.concat(vim.api.nvim_buf_get_lines(bufnr, 0, -1, false), '\n')
  end

  -- Typing in Neovim (incremental didChange): the undeclared group becomes a declared one and the
  -- diagnostic goes away.
  local undeclared = find(bufnr, '"Undeclared"', 1, 1)
  vim.api.nvim_buf_set_text(bufnr, undeclared.line, undeclared.character, undeclared.line, undeclared.character + #'Undeclared', { 'Storage' })
  result.cleared = vim.wait(TIMEOUT_MS, function()
    for _, d in ipairs(vim.diagnostic.get(bufnr)) do
      if d.code == 'PS5001' then return false end
    end
    return true
  end, 20)
  result.diagnostics_after_edit = {}
  for _, d in ipairs(vim.diagnostic.get(bufnr)) do
    table.insert(result.diagnostics_after_edit, { lnum = d.lnum, col = d.col, code = d.code, message = d.message })
  end

  result.server_alive = not client.is_stopped()
  client.stop()
  vim.wait(3000, function()
    return result.server_exit ~= nil
  end, 20)
end

local ok, err = xpcall(main, debug.traceback)
if not ok then result.error = tostring(err) end
local written, write_error = pcall(write_result)
if not written then io.stderr:write('could not write the result: ' .. tostring(write_error) .. '\n') end
vim.cmd('qall!')
