-- rulelang in Neovim (0.10+): *.rule and *.test files, `rulelang lsp` as their language
-- server, `rulelang fmt` through the server's formatting. Put this file in
-- ~/.config/nvim/plugin/ (or require it from your init.lua).
vim.filetype.add({ extension = { rule = "rulelang", test = "rulelang" } })

vim.api.nvim_create_autocmd("FileType", {
  pattern = "rulelang",
  callback = function(args)
    vim.bo[args.buf].commentstring = "# %s"
    vim.bo[args.buf].shiftwidth = 2
    vim.bo[args.buf].expandtab = true
    vim.lsp.start({
      name = "rulelang",
      cmd = { "rulelang", "lsp" },
      root_dir = vim.fs.root(args.buf, { ".git", "rulebooks" }) or vim.fn.getcwd(),
    })
  end,
})
