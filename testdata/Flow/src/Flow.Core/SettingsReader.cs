namespace Flow.Core;

// A setting read through an interface of one project, implemented in another (Flow.Data) and called from a third
// (Flow.Web, which references both) and a fourth (Flow.Plugin, which sees no implementation): each call's keys come
// from the implementations its own compilation sees, whichever project asks first.
public interface ISettingsReader
{
    string Read(string name);
}
