public class Sample
{
}
