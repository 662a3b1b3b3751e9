module Xaml.Fs.Library

let answer = 42
